// Discord's markdown, the subset the bot uses, rendered safely: code spans/blocks and backslash
// escapes are set aside first, the rest is HTML-escaped and gets bold, italics, underline,
// strike, headings, subtext, quotes, mentions (as names), channels, timestamps and custom emoji.
// A backslash before a character that is not a letter, a digit or a space shows that character
// as itself (`\*` is a star, `\<@1>` no mention), as Discord's client reads it; in code it
// stays. A link to a message or channel of this server (`https://discord.com/channels/...`, as
// the bot writes jump links) opens it in the page; other links show their address in a tooltip:
// the page never leaves 127.0.0.1.
"use strict";

const Markdown = (() => {
  function escape(text) {
    return text.replace(/[&<>"']/g, (c) => ({
      "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
    })[c]);
  }

  // Discord's timestamp styles, shown in the viewer's own time zone and language (the
  // browser's, as Discord's client does); R is relative to the sandbox's clock.
  const STYLES = {
    t: { hour: "numeric", minute: "2-digit" },
    T: { hour: "numeric", minute: "2-digit", second: "2-digit" },
    d: { year: "numeric", month: "2-digit", day: "2-digit" },
    D: { year: "numeric", month: "long", day: "numeric" },
    f: { year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit" },
    F: { weekday: "long", year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit" },
  };

  function timestamp(seconds, style) {
    const date = new Date(Number(seconds) * 1000);
    if (style === "R") {
      const diff = (date.getTime() - Sandbox.now() * 1000) / 1000;
      const abs = Math.abs(diff);
      const units = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
      for (const [unit, size] of units) {
        if (abs >= size || unit === "second") {
          const n = Math.round(abs / size);
          const text = `${n} ${unit}${n === 1 ? "" : "s"}`;
          return diff >= 0 ? `in ${text}` : `${text} ago`;
        }
      }
    }
    return new Intl.DateTimeFormat(undefined, STYLES[style] || STYLES.f).format(date);
  }

  function fullDate(seconds) {
    return new Intl.DateTimeFormat(undefined, STYLES.F).format(new Date(Number(seconds) * 1000));
  }

  function inline(text, names) {
    return text
      .replace(/&lt;@!?(\d+)&gt;/g, (_, id) =>
        `<span class="mention${names.me && names.me() === id ? " me" : ""}">@${escape(names.user(id))}</span>`)
      .replace(/&lt;#(\d+)&gt;/g, (_, id) => `<span class="mention">#${escape(names.channel(id))}</span>`)
      .replace(/&lt;@&amp;(\d+)&gt;/g, () => `<span class="mention">@role</span>`)
      .replace(/&lt;\/([\w -]+):\d+&gt;/g, (_, name) => `<span class="mention">/${name}</span>`)
      .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, s, style) =>
        `<time class="timestamp" datetime="${new Date(s * 1000).toISOString()}" title="${escape(fullDate(s))}">${escape(timestamp(s, style))}</time>`)
      .replace(/&lt;a?:(\w+):\d+&gt;/g, ":$1:")
      .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, (_, label, url) => link(label, url))
      .replace(/\*\*\*(.+?)\*\*\*/g, "<strong><em>$1</em></strong>")
      .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
      .replace(/__(.+?)__/g, "<u>$1</u>")
      .replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, "$1<em>$2</em>")
      .replace(/(^|[^\w])_(?!\s)(.+?)_(?!\w)/g, "$1<em>$2</em>")
      .replace(/~~(.+?)~~/g, "<s>$1</s>")
      .replace(/\|\|(.+?)\|\|/g, '<span class="spoiler">$1</span>');
  }

  // A jump link (discord.com/channels/guild-or-@me/channel[/message]) is a real link the page
  // follows itself (app.js); any other address is only shown.
  const JUMP = /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/channels\/(\d+|@me)\/(\d+)(?:\/(\d+))?$/;

  function link(label, url) {
    const jump = url.replace(/&amp;/g, "&").match(JUMP);
    if (!jump) return `<span class="link" title="${url}">${label}</span>`;
    const message = jump[3] ? ` data-message="${jump[3]}"` : "";
    return `<a class="link" href="${url}" data-channel="${jump[2]}"${message}>${label}</a>`;
  }

  function lines(text, names) {
    const out = [];
    for (const line of text.split("\n")) {
      let m;
      if ((m = line.match(/^(#{1,3}) (.*)$/))) {
        out.push(`<h${m[1].length}>${inline(m[2], names)}</h${m[1].length}>`);
      } else if ((m = line.match(/^-# (.*)$/))) {
        out.push(`<span class="subtext">${inline(m[1], names)}</span>`);
      } else if ((m = line.match(/^&gt; ?(.*)$/))) {
        out.push(`<blockquote>${inline(m[1], names)}</blockquote>`);
      } else {
        out.push(inline(line, names) + "\n");
      }
    }
    return out.join("").replace(/\n$/, "");
  }

  // Set-aside pieces stand in the text as private-use characters around their number, which
  // neither HTML escaping nor any markdown rule touches.
  const OPEN = "\uE000", CLOSE = "\uE001";
  const HELD = new RegExp(`${OPEN}(\\d+)${CLOSE}`, "g");

  // names: {user(id) -> display name, channel(id) -> channel name}
  function render(text, names) {
    if (!text) return "";
    const held = [];
    const hold = (html) => `${OPEN}${held.push(html) - 1}${CLOSE}`;
    // one pass, left to right, as Discord's parser reads: an escaped backtick opens no code,
    // and a backslash inside code is text
    const pattern = /\\([^0-9A-Za-z\s])|```(?:\w+\n)?([\s\S]*?)```|`([^`\n]+)`/g;
    const kept = text.replace(/[\uE000\uE001]/g, "").replace(pattern, (_, char, block, span) => {
      if (char !== undefined) return hold(escape(char));
      if (block !== undefined) return hold(`<pre>${escape(block.replace(/^\n|\n$/g, ""))}</pre>`);
      return hold(`<code>${escape(span)}</code>`);
    });
    return lines(escape(kept), names).replace(HELD, (_, index) => held[Number(index)]);
  }

  return { render, escape };
})();
