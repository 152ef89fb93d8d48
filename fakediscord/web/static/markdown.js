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

  function timestamp(seconds, style) {
    const date = new Date(Number(seconds) * 1000);
    if (style === "R") {
      const diff = (date.getTime() - Sandbox.now() * 1000) / 1000;
      const abs = Math.abs(diff);
      const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
      for (const [unit, size] of units) {
        if (abs >= size || unit === "second") {
          const n = Math.round(abs / size);
          const text = `${n} ${unit}${n === 1 ? "" : "s"}`;
          return diff >= 0 ? `in ${text}` : `${text} ago`;
        }
      }
    }
    if (style === "t" || style === "T") return date.toLocaleTimeString();
    if (style === "d" || style === "D") return date.toLocaleDateString();
    return date.toLocaleString();
  }

  function inline(text, names) {
    return text
      .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => `<span class="mention">@${escape(names.user(id))}</span>`)
      .replace(/&lt;#(\d+)&gt;/g, (_, id) => `<span class="mention">#${escape(names.channel(id))}</span>`)
      .replace(/&lt;@&amp;(\d+)&gt;/g, () => `<span class="mention">@role</span>`)
      .replace(/&lt;\/([\w -]+):\d+&gt;/g, (_, name) => `<span class="mention">/${name}</span>`)
      .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, s, style) =>
        `<span class="mention" title="${escape(new Date(s * 1000).toString())}">${escape(timestamp(s, style))}</span>`)
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
