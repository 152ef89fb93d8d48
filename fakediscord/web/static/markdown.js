// Discord's markdown, the subset the bot uses, rendered safely: the text is HTML-escaped first,
// then code spans/blocks are set aside and the rest gets bold, italics, underline, strike,
// headings, subtext, quotes, mentions (as names), channels, timestamps and custom emoji.
// Links are shown as their text with the address in a tooltip: the page never leaves 127.0.0.1.
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
      .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<span class="link" title="$2">$1</span>')
      .replace(/\*\*\*(.+?)\*\*\*/g, "<strong><em>$1</em></strong>")
      .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
      .replace(/__(.+?)__/g, "<u>$1</u>")
      .replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, "$1<em>$2</em>")
      .replace(/(^|[^\w])_(?!\s)(.+?)_(?!\w)/g, "$1<em>$2</em>")
      .replace(/~~(.+?)~~/g, "<s>$1</s>")
      .replace(/\|\|(.+?)\|\|/g, '<span class="spoiler">$1</span>');
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

  // names: {user(id) -> display name, channel(id) -> channel name}
  function render(text, names) {
    if (!text) return "";
    const pieces = [];
    const escaped = escape(text);
    const pattern = /```(?:\w+\n)?([\s\S]*?)```|`([^`\n]+)`/g;
    let last = 0;
    let m;
    while ((m = pattern.exec(escaped)) !== null) {
      pieces.push(lines(escaped.slice(last, m.index), names));
      pieces.push(m[1] !== undefined ? `<pre>${m[1].replace(/^\n|\n$/g, "")}</pre>` : `<code>${m[2]}</code>`);
      last = pattern.lastIndex;
    }
    pieces.push(lines(escaped.slice(last), names));
    return pieces.join("");
  }

  return { render, escape };
})();
