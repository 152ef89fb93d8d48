// Ballcourt sandbox client: channels, messages, components, modals, slash commands with
// completion, a user switcher and the clock. Talks only to the server that served it.
"use strict";

const COMPONENT = { ROW: 1, BUTTON: 2, STRING_SELECT: 3, TEXT_INPUT: 4, USER_SELECT: 5,
  ROLE_SELECT: 6, MENTIONABLE_SELECT: 7, CHANNEL_SELECT: 8, SECTION: 9, TEXT: 10,
  THUMBNAIL: 11, GALLERY: 12, FILE: 13, SEPARATOR: 14, CONTAINER: 17, LABEL: 18 };
const OPTION = { SUB: 1, GROUP: 2, STRING: 3, INTEGER: 4, BOOLEAN: 5, USER: 6, CHANNEL: 7,
  ROLE: 8, MENTIONABLE: 9, NUMBER: 10, ATTACHMENT: 11 };
const BUTTON_STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "primary" };
const FLAG_EPHEMERAL = 1 << 6;
const FLAG_LOADING = 1 << 7;
const FLAG_COMPONENTS_V2 = 1 << 15;

const Sandbox = {
  me: null, state: null, channel: null, messages: new Map(), events: null,
  clockAt: 0, clockNow: 0, modalInteraction: null, command: null, dismissed: new Set(),
  mentionCounts: new Map(), counted: new Set(),
  now() { return this.clockNow + (Date.now() / 1000 - this.clockAt); },
};
window.Sandbox = Sandbox;

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
};

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(await response.text());
  return response.json();
}

// --- names -------------------------------------------------------------------------------------

function userName(id) {
  const state = Sandbox.state;
  if (!state) return id;
  if (state.bot.id === id) return state.bot.global_name;
  const member = state.members.find((m) => m.id === id);
  return member ? member.global_name : "unknown-user";
}
function channelName(id) {
  const channel = Sandbox.state && Sandbox.state.channels.find((c) => c.id === id);
  return channel ? channel.name : "unknown-channel";
}
const names = { user: userName, channel: channelName, me: () => Sandbox.me };

// Whether a message mentions the one using the page (Discord highlights it and counts it on
// its channel until the channel is read).
function mentionsMe(message) {
  if ((message.mentions || []).some((user) => user.id === Sandbox.me)) return true;
  return new RegExp(`<@!?${Sandbox.me}>`).test(message.content || "");
}
const md = (text) => Markdown.render(text, names);

// --- state, channels, user switcher ------------------------------------------------------------

async function loadState() {
  Sandbox.state = await api(`/sandbox/state?user=${Sandbox.me}`);
  $("server-name").textContent = Sandbox.state.guild.name;
  renderUsers();
  renderChannels();
  renderStatus(Sandbox.state);
  renderThreadPlaces();
}

function renderUsers() {
  const select = $("user-select");
  select.replaceChildren(...Sandbox.state.members.map((m) =>
    el("option", { value: m.id, selected: m.id === Sandbox.me },
      m.global_name + (m.owner ? " (owner)" : ""))));
}

function renderChannels() {
  const list = $("channel-list");
  const channels = Sandbox.state.channels;
  const text = channels.filter((c) => c.type === 0).sort((a, b) => a.position - b.position);
  const button = (id, label, cls) => {
    const node = el("button", {
      type: "button", class: `channel ${cls}${id === Sandbox.channel ? " active" : ""}`,
      "data-channel": id, onclick: () => openChannel(id),
    }, el("span", { class: "channel-name" }, label));
    renderMentionBadge(node, Sandbox.mentionCounts.get(id));
    return node;
  };
  const items = [el("div", { class: "channel-heading" }, "Text channels")];
  for (const channel of text) {
    items.push(button(channel.id, `# ${channel.name}`, ""));
    // archived threads too (Discord lists them in the channel's thread browser): a match's
    // thread archives after a day without a message, and a message or a click reopens it
    for (const thread of channels.filter((t) => t.parent_id === channel.id)) {
      const label = `↳ ${thread.name}${thread.archived ? " (archived)" : ""}`;
      items.push(button(thread.id, label, "thread"));
    }
  }
  items.push(el("div", { class: "channel-heading" }, "Direct messages"));
  items.push(button(Sandbox.state.dm_channel, `@ ${Sandbox.state.bot.global_name}`, ""));
  list.replaceChildren(...items);
}

// --- threads: active ones in the channel list; every one, archived too, from the message it
// started from and from its channel's thread list. Discord's developer documentation (Topics ›
// Threads): an archived thread stays readable and is listed apart ("List Public Archived
// Threads", GET /channels/{channel_id}/threads/archived/public); its client shows a thread
// under the message it started from, and the Threads button in the channel header lists the
// channel's threads with the archived ones in their own tab.

function threadOf(id) {
  return Sandbox.state.channels.find((c) => c.id === id && c.type !== 0);
}

function threadLink(thread) {
  return el("button", {
    type: "button", class: `thread-link${thread.archived ? " archived" : ""}`,
    "data-thread": thread.id, onclick: () => openChannel(thread.id),
  }, el("span", { class: "thread-name" }, `↳ ${thread.name}`),
  el("span", { class: "thread-state" }, thread.archived ? "archived thread ›" : "thread ›"));
}

// The thread button in the header, the archived note, and the links under the messages that
// started threads follow the channel list as it changes (a thread archived, renamed, opened).
function renderThreadPlaces() {
  const open = Sandbox.state.channels.find((c) => c.id === Sandbox.channel);
  $("threads-button").hidden = !open;
  const thread = open && open.type !== 0 ? open : null;
  $("archived-note").hidden = !(thread && thread.archived);
  for (const node of document.querySelectorAll("#messages .thread-link")) {
    const now = threadOf(node.dataset.thread);
    if (now) node.replaceWith(threadLink(now));
  }
  if (!$("thread-panel").hidden) renderThreadPanel();
}

function renderThreadPanel() {
  const open = Sandbox.state.channels.find((c) => c.id === Sandbox.channel);
  const parent = open && open.type !== 0 ? open.parent_id : Sandbox.channel;
  const threads = Sandbox.state.channels.filter((c) => c.parent_id === parent && c.type !== 0)
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));  // newest first
  const section = (cls, title, items) => el("section", { class: `thread-section ${cls}` },
    el("h3", {}, `${title} (${items.length})`),
    items.length ? items.map((t) => el("button", {
      type: "button", class: "thread-item", "data-thread": t.id,
      onclick: () => { closeThreadPanel(); openChannel(t.id); },
    }, `↳ ${t.name}`)) : el("p", { class: "thread-none" }, "None"));
  $("thread-panel-title").textContent = `Threads in #${channelName(parent)}`;
  $("thread-panel-body").replaceChildren(
    section("active", "Active threads", threads.filter((t) => !t.archived)),
    section("archived", "Archived threads", threads.filter((t) => t.archived)));
}

function openThreadPanel() {
  renderThreadPanel();
  $("thread-panel").hidden = false;
}

function closeThreadPanel() {
  $("thread-panel").hidden = true;
}

// A link to a message or channel of this server (the bot's jump links) opens it here, at that
// message, highlighted as Discord highlights the message a link jumps to.
async function followJump(channel, message) {
  const known = Sandbox.state.channels.some((c) => c.id === channel)
    || channel === Sandbox.state.dm_channel;
  if (!known) {
    showError("That link goes to a channel you cannot see.");
    return;
  }
  await openChannel(channel);
  Sandbox.jumped = message || null;  // kept when the message is redrawn
  const node = message && document.querySelector(`#messages .message[data-id="${message}"]`);
  if (node) {
    node.classList.add("jumped");
    node.scrollIntoView({ block: "center" });
  }
}

function channelTitle(id) {
  if (id === Sandbox.state.dm_channel) return `@${Sandbox.state.bot.global_name} (direct messages)`;
  const channel = Sandbox.state.channels.find((c) => c.id === id);
  if (!channel) return "";
  return channel.type === 0 ? `#${channel.name}` : `↳ ${channel.name}`;
}

async function openChannel(id) {
  Sandbox.channel = id;
  Sandbox.jumped = null;
  Sandbox.mentionCounts.delete(id);  // read
  renderDrawerBadge();
  localStorage.setItem("sandbox-channel", id);
  $("channel-title").textContent = channelTitle(id);
  $("sidebar").classList.remove("open");
  renderChannels();
  renderThreadPlaces();
  // Emptied before the history is asked for, not when it comes: a message arriving live
  // meanwhile (the bot's welcome as a new sandbox opens) is kept, and the history is merged
  // around it in order (upsertMessage keeps the newer of two versions).
  Sandbox.messages = new Map();
  $("messages").replaceChildren();
  const data = await api(`/sandbox/messages?channel=${id}&user=${Sandbox.me}`);
  if (Sandbox.channel !== id) return;
  for (const message of data.messages) upsertMessage(message, false);
  scrollToBottom(true);
}

async function switchUser(id) {
  Sandbox.me = id;
  localStorage.setItem("sandbox-user", id);
  closeModal();
  await loadState();
  await connectEvents();
  const known = Sandbox.state.channels.some((c) => c.id === Sandbox.channel)
    || Sandbox.channel === Sandbox.state.dm_channel;
  await openChannel(known ? Sandbox.channel : firstChannel());
  document.body.dataset.user = id;  // the page now shows what this user sees
}

function firstChannel() {
  const text = Sandbox.state.channels.filter((c) => c.type === 0).sort((a, b) => a.position - b.position);
  return text.length ? text[0].id : Sandbox.state.dm_channel;
}

// --- status: bot, clock, notices ---------------------------------------------------------------

function renderStatus(status) {
  const bot = $("bot-status");
  bot.className = status.bot_connected ? "online" : "offline";
  bot.textContent = status.bot_connected ? "Ballcourt is online" : "Ballcourt is offline (starting or stopped)";
  Sandbox.clockNow = status.clock.now;
  Sandbox.clockAt = Date.now() / 1000;
  Sandbox.clockOffset = status.clock.offset;
  for (const button of document.querySelectorAll("button.clock")) {
    button.disabled = !status.clock.enabled;
    button.title = status.clock.enabled ? "Move the bot's clock forward" : status.clock.note;
  }
  renderClock();
  $("notices").replaceChildren(...(status.notices || []).map((n) => el("div", { class: "notice" }, n.text)));
}

function renderClock() {
  const date = new Date(Sandbox.now() * 1000);
  const hours = Math.round((Sandbox.clockOffset || 0) / 3600);
  const days = Math.floor(hours / 24);
  const parts = [days ? `+${days} d` : "", hours % 24 ? `+${hours % 24} h` : ""].filter(Boolean);
  const ahead = parts.length ? ` (${parts.join(" ")})` : "";
  const when = date.toLocaleString([], { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  $("clock-now").replaceChildren(el("span", { class: "wide-only" }, "Sandbox time: "), `${when}${ahead}`);
}

async function advanceClock(seconds) {
  const result = await api("/sandbox/clock", { advance: seconds });
  if (!result.ok) return showError(result.error);
  renderStatus({ ...Sandbox.state, clock: result.clock, bot_connected: $("bot-status").className === "online",
    notices: [] });
  showError("");
}

// --- live updates ------------------------------------------------------------------------------

// Resolves once the stream is open, so a channel loaded after it misses nothing.
function connectEvents() {
  if (Sandbox.events) Sandbox.events.close();
  const events = new EventSource(`/sandbox/events?user=${Sandbox.me}`);
  Sandbox.events = events;
  const opened = new Promise((resolve) => events.addEventListener("hello", resolve, { once: true }));
  events.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.channel_id === Sandbox.channel) upsertMessage(message, true);
    else markUnread(message);
  });
  events.addEventListener("delete", (event) => {
    const { id } = JSON.parse(event.data);
    const node = document.querySelector(`.message[data-id="${id}"]`);
    if (node) node.remove();
    Sandbox.messages.delete(id);
  });
  events.addEventListener("channels", () => loadState());
  events.addEventListener("status", (event) => {
    const status = JSON.parse(event.data);
    renderStatus(status);
    if (status.bot_connected && !Sandbox.state.commands.length) loadState();
  });
  return opened;
}

function markUnread(message) {
  const channelId = message.channel_id;
  const button = document.querySelector(`.channel[data-channel="${channelId}"]`);
  if (!button) {
    loadState();
    return;
  }
  button.classList.add("unread");
  if (mentionsMe(message) && !Sandbox.counted.has(message.id)) {
    Sandbox.counted.add(message.id);
    Sandbox.mentionCounts.set(channelId, (Sandbox.mentionCounts.get(channelId) || 0) + 1);
    renderMentionBadge(button, Sandbox.mentionCounts.get(channelId));
    renderDrawerBadge();
  }
}

// The drawer's button (on a phone) shows the mentions of every channel but the open one.
function renderDrawerBadge() {
  let total = 0;
  for (const [channel, count] of Sandbox.mentionCounts) if (channel !== Sandbox.channel) total += count;
  renderMentionBadge($("toggle-sidebar"), total);
}

function renderMentionBadge(button, count) {
  let badge = button.querySelector(".mention-count");
  if (!count) {
    if (badge) badge.remove();
    return;
  }
  if (!badge) {
    badge = el("span", { class: "mention-count", "aria-label": "mentions" });
    button.append(badge);
  }
  badge.textContent = String(count);
}

// --- messages ----------------------------------------------------------------------------------

// The view follows new messages while the reader is at the bottom (Sandbox.stick), as
// Discord's does; scrolling up to read stops it.
function scrollToBottom(force) {
  const box = $("messages");
  if (force || Sandbox.stick) box.scrollTop = box.scrollHeight;
}

function upsertMessage(message, live) {
  if (Sandbox.dismissed.has(message.id)) return;
  const previous = Sandbox.messages.get(message.id);
  if (previous && previous.sandbox_version > message.sandbox_version) return;
  Sandbox.messages.set(message.id, message);
  const node = renderMessage(message);
  const existing = document.querySelector(`.message[data-id="${message.id}"]`);
  if (existing) existing.replaceWith(node);
  else {
    const box = $("messages");
    const after = [...box.children].find((child) => BigInt(child.dataset.id) > BigInt(message.id));
    box.insertBefore(node, after || null);
    if (live) scrollToBottom(false);
  }
}

function renderMessage(message) {
  const author = message.author;
  const isBot = author.bot;
  const ephemeral = message.sandbox_ephemeral || (message.flags & FLAG_EPHEMERAL);
  const time = new Date(message.timestamp);
  const body = el("div", { class: "body" },
    el("div", { class: "head" },
      el("span", { class: "author" }, author.global_name || author.username),
      isBot ? el("span", { class: "bot-tag" }, "APP") : null,
      el("span", { class: "time", title: time.toString() },
        time.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })),
      message.edited_timestamp ? el("span", { class: "edited" }, "(edited)") : null));
  if (message.flags & FLAG_LOADING) {
    body.append(el("div", { class: "loading" }, `${author.global_name} is thinking…`));
  }
  if (message.content) body.append(el("div", { class: "content", html: md(message.content) }));
  for (const embed of message.embeds || []) body.append(renderEmbed(embed));
  // as on Discord, an attachment an embed shows (attachment://board.png) is not shown twice
  const inEmbeds = new Set((message.embeds || []).flatMap((e) =>
    [e.image && e.image.url, e.thumbnail && e.thumbnail.url]).filter(Boolean));
  // a Components V2 message shows its files only through its components, as Discord does
  const v2 = Boolean(message.flags & FLAG_COMPONENTS_V2);
  for (const attachment of v2 ? [] : message.attachments || []) {
    if (!inEmbeds.has(attachment.url)) body.append(renderAttachment(attachment));
  }
  if (message.components && message.components.length) {
    for (const component of message.components) body.append(renderComponent(component, message));
  }
  const thread = Sandbox.state && threadOf(message.id);  // a thread has its message's id
  if (thread) body.append(threadLink(thread));
  if (ephemeral) {
    body.append(el("div", { class: "ephemeral-note" }, "Only you can see this · ",
      el("a", { href: "#", onclick: (e) => { e.preventDefault(); dismiss(message.id); } }, "Dismiss message")));
  }
  const invocation = message.sandbox_invocation && message.interaction_metadata
    ? el("div", { class: "invocation" },
      `↳ ${userName(message.interaction_metadata.user.id)} used ${message.sandbox_invocation}`)
    : null;
  return el("article", {
    class: `message${ephemeral ? " ephemeral" : ""}${mentionsMe(message) ? " mentions-me" : ""}`
      + (message.id === Sandbox.jumped ? " jumped" : ""),
    "data-id": message.id,
    "data-author": author.username, "data-version": message.sandbox_version,
  },
  invocation ? el("div") : null, invocation,
  el("div", { class: `avatar${isBot ? " bot" : ""}`, "aria-hidden": "true" },
    (author.global_name || author.username).slice(0, 1).toUpperCase()),
  body);
}

function dismiss(id) {
  Sandbox.dismissed.add(id);
  const node = document.querySelector(`.message[data-id="${id}"]`);
  if (node) node.remove();
}

function renderEmbed(embed) {
  const color = embed.color !== undefined && embed.color !== null
    ? `#${embed.color.toString(16).padStart(6, "0")}` : null;
  const box = el("div", { class: "embed", style: color ? `border-left-color: ${color}` : null });
  if (embed.thumbnail && embed.thumbnail.url && embed.thumbnail.url.startsWith("/")) {
    box.append(el("img", { class: "embed-thumb", src: embed.thumbnail.url, alt: "" }));
  }
  if (embed.author && embed.author.name) box.append(el("div", { class: "embed-author" }, embed.author.name));
  if (embed.title) box.append(el("div", { class: "embed-title", html: md(embed.title) }));
  if (embed.description) box.append(el("div", { class: "content", html: md(embed.description) }));
  if (embed.fields && embed.fields.length) {
    box.append(el("div", { class: "embed-fields" }, embed.fields.map((field) =>
      el("div", { class: `embed-field${field.inline ? " inline" : ""}` },
        el("div", { class: "embed-field-name", html: md(field.name) }),
        el("div", { class: "content", html: md(field.value) })))));
  }
  if (embed.image && embed.image.url) box.append(image(embed.image.url, embed.image, embed.title || "image"));
  if (embed.footer && embed.footer.text) box.append(el("div", { class: "embed-footer" }, embed.footer.text));
  return box;
}

function image(url, size, alt) {
  if (!url || !url.startsWith("/")) {
    // an outside address: the sandbox never leaves 127.0.0.1 (the page's policy forbids it)
    return el("div", { class: "attachment-file", title: url }, `[image at ${url} not loaded: outside the sandbox]`);
  }
  return el("img", { class: "media", src: url, alt: alt || "",
    width: size && size.width, height: size && size.height, onload: () => scrollToBottom(false) });
}

function renderAttachment(attachment) {
  if ((attachment.content_type || "").startsWith("image/")) {
    return image(attachment.url, attachment, attachment.description || attachment.filename);
  }
  return el("a", { class: "attachment-file", href: attachment.url, download: attachment.filename },
    `📎 ${attachment.filename}`);
}

function formatSize(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function renderComponent(component, message) {
  switch (component.type) {
    case COMPONENT.ROW:
      return el("div", { class: "action-row" }, (component.components || []).map((c) => renderComponent(c, message)));
    case COMPONENT.BUTTON: return renderButton(component, message);
    case COMPONENT.STRING_SELECT: case COMPONENT.USER_SELECT: case COMPONENT.ROLE_SELECT:
    case COMPONENT.MENTIONABLE_SELECT: case COMPONENT.CHANNEL_SELECT:
      return renderSelect(component, message);
    case COMPONENT.TEXT: return el("div", { class: "content text-display", html: md(component.content || "") });
    case COMPONENT.CONTAINER: {
      const color = component.accent_color !== undefined && component.accent_color !== null
        ? `#${component.accent_color.toString(16).padStart(6, "0")}` : null;
      return el("div", { class: `v2-container${color ? " accent" : ""}${component.spoiler ? " spoiler-box" : ""}`,
        style: color ? `border-left-color: ${color}` : null, "data-accent": color },
        (component.components || []).map((c) => renderComponent(c, message)));
    }
    case COMPONENT.SECTION:
      return el("div", { class: "v2-section" },
        el("div", { class: "v2-section-text" }, (component.components || []).map((c) => renderComponent(c, message))),
        component.accessory ? el("div", { class: "v2-accessory" }, renderComponent(component.accessory, message)) : null);
    case COMPONENT.THUMBNAIL:
      return el("div", { class: "v2-thumbnail" },
        image(component.media && component.media.url, component.media, component.description));
    case COMPONENT.GALLERY: {
      const items = component.items || [];
      return el("div", { class: `v2-gallery count-${Math.min(items.length, 4)}` },
        items.map((item) => image(item.media && item.media.url, item.media, item.description)));
    }
    case COMPONENT.FILE: {
      const file = component.file || {};
      const size = component.size !== undefined ? ` · ${formatSize(component.size)}` : "";
      return el("a", { class: "attachment-file v2-file", href: file.url, download: component.name || "" },
        `📎 ${component.name || file.url || "file"}${size}`);
    }
    case COMPONENT.SEPARATOR:
      return el("div", { class: `v2-separator${component.divider === false ? "" : " divider"}${component.spacing === 2 ? " large" : ""}`,
        role: "separator" });
    default: return el("div", { class: "loading" }, `(component type ${component.type})`);
  }
}

function renderButton(button, message) {
  const emoji = button.emoji && button.emoji.name ? `${button.emoji.id ? `:${button.emoji.name}:` : button.emoji.name} ` : "";
  const label = `${emoji}${button.label || ""}`.trim();
  const style = BUTTON_STYLES[button.style] || "secondary";
  if (button.style === 5) {
    return el("button", { type: "button", class: "btn link", title: button.url, disabled: button.disabled,
      onclick: () => showError(`This button links to ${button.url}; the sandbox does not open other sites.`) },
    `${label} ↗`);
  }
  return el("button", {
    type: "button", class: `btn ${style}`, disabled: button.disabled, "data-custom-id": button.custom_id,
    onclick: (event) => act({ action: "click", message: message.id, custom_id: button.custom_id }, event.currentTarget),
  }, label);
}

function selectOptions(select) {
  if (select.type === COMPONENT.STRING_SELECT) {
    return (select.options || []).map((o) => ({ value: o.value, label: `${o.emoji && o.emoji.name ? o.emoji.name + " " : ""}${o.label}`,
      description: o.description || "", default: Boolean(o.default) }));
  }
  if (select.type === COMPONENT.USER_SELECT || select.type === COMPONENT.MENTIONABLE_SELECT) {
    return Sandbox.state.members.map((m) => ({ value: m.id, label: m.global_name, description: "", default: false }));
  }
  if (select.type === COMPONENT.CHANNEL_SELECT) {
    return Sandbox.state.channels.map((c) => ({ value: c.id, label: `#${c.name}`, description: "", default: false }));
  }
  return [];
}

// Discord draws every select closed, one row tall, whatever its max_values: "On desktop,
// clicking on a select menu opens a dropdown-style UI; on mobile, tapping a select menu opens
// up a half-sheet with the options ... When a user finishes making their choice by clicking out
// of the dropdown or closing the half-sheet, your app will receive an interaction" (Discord's
// developer docs, Message Components, "Select Menus"). A menu of one pick is the browser's own
// closed select (picking sends); a menu of several is a closed row that opens the sheet.
function renderSelect(select, message) {
  const placeholder = select.placeholder || "Make a selection";
  const options = selectOptions(select);
  if ((select.max_values || 1) > 1) {
    const chosen = options.filter((o) => o.default).map((o) => o.label);
    const node = el("button", { type: "button", class: "select select-closed", disabled: select.disabled,
      "aria-haspopup": "dialog", "aria-label": placeholder, "data-custom-id": select.custom_id },
    el("span", { class: "select-value" }, chosen.length ? chosen.join(", ") : placeholder));
    node.addEventListener("click", () => openSelectSheet(select, message, options, placeholder, node));
    return node;
  }
  const node = el("select", { class: "select", disabled: select.disabled,
    "aria-label": placeholder, "data-custom-id": select.custom_id });
  node.append(el("option", { value: "", disabled: true, selected: true }, placeholder));
  for (const option of options) {
    const label = `${option.label}${option.description ? ` · ${option.description}` : ""}`;
    node.append(el("option", { value: option.value, selected: option.default }, label));
  }
  node.addEventListener("change", () => {
    const values = [...node.selectedOptions].map((o) => o.value).filter(Boolean);
    if (values.length < (select.min_values ?? 1)) return;
    act({ action: "select", message: message.id, custom_id: select.custom_id, values }, node);
  });
  return node;
}

// The half-sheet of a menu of several picks: each option toggles (the unpicked ones stop
// taking taps once max_values are picked); closing it (its ✕, a tap outside, Escape) sends the
// picks if they changed and are at least min_values, as closing Discord's sheet does.
function openSelectSheet(select, message, options, placeholder, control) {
  const most = select.max_values || 1;
  const least = select.min_values ?? 1;
  const picked = new Set(options.filter((o) => o.default).map((o) => o.value));
  const inOrder = () => options.map((o) => o.value).filter((v) => picked.has(v));
  const before = inOrder().join("\n");
  const list = $("select-sheet-options");
  const rows = options.map((option) => {
    const row = el("div", { class: "sheet-option", role: "option", tabindex: "0", "data-value": option.value },
      el("span", { class: "tick", "aria-hidden": "true" }),
      el("span", { class: "sheet-label" }, option.label,
        option.description ? el("small", {}, option.description) : null));
    const toggle = () => {
      if (row.getAttribute("aria-disabled") === "true") return;
      if (picked.has(option.value)) picked.delete(option.value);
      else picked.add(option.value);
      refresh();
    };
    row.addEventListener("click", toggle);
    row.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); }
    });
    return row;
  });
  const refresh = () => {
    for (const row of rows) {
      const on = picked.has(row.dataset.value);
      row.setAttribute("aria-selected", String(on));
      row.setAttribute("aria-disabled", String(!on && picked.size >= most));
    }
    $("select-sheet-note").textContent = most === 1 ? "" : `${picked.size} of at most ${most} picked`;
  };
  list.replaceChildren(...rows);
  $("select-sheet-title").textContent = placeholder;
  refresh();
  Sandbox.closeSheet = () => {
    $("select-sheet").hidden = true;
    Sandbox.closeSheet = null;
    const values = inOrder();
    if (values.join("\n") === before || values.length < least) return;
    act({ action: "select", message: message.id, custom_id: select.custom_id, values }, control);
  };
  $("select-sheet").hidden = false;
  if (rows.length) rows[0].focus();
}

function closeSelectSheet() {
  if (Sandbox.closeSheet) Sandbox.closeSheet();
}

// --- acting ------------------------------------------------------------------------------------

async function act(body, control) {
  if (control) control.disabled = true;
  showError("");
  try {
    const result = await api("/sandbox/act", { user: Sandbox.me, channel: Sandbox.channel, ...body });
    if (!result.ok) {
      showError(result.error);
      return result;
    }
    if (result.modal) openModal(result.modal, result.interaction);
    return result;
  } catch (error) {
    showError(String(error.message || error));
    return { ok: false };
  } finally {
    if (control && control.isConnected) control.disabled = false;
  }
}

function showError(text) {
  $("composer-error").textContent = text || "";
}

// --- modals ------------------------------------------------------------------------------------

function modalField(component, label, description) {
  const id = `modal-${component.custom_id}`;
  let input;
  if (component.type === COMPONENT.TEXT_INPUT) {
    const attrs = { id, name: component.custom_id, placeholder: component.placeholder,
      required: component.required !== false, minlength: component.min_length, maxlength: component.max_length };
    input = component.style === 2 ? el("textarea", attrs) : el("input", { type: "text", ...attrs });
    input.value = component.value || "";
  } else if (component.type === COMPONENT.STRING_SELECT) {
    input = el("select", { id, name: component.custom_id, multiple: (component.max_values || 1) > 1 },
      (component.options || []).map((o) => el("option", { value: o.value, selected: o.default }, o.label)));
  } else {
    return el("div", { class: "field loading" }, `(input type ${component.type})`);
  }
  return el("div", { class: "field" },
    el("label", { for: id }, label || component.label || component.custom_id),
    description ? el("div", { class: "description" }, description) : null,
    input);
}

function openModal(modal, interaction) {
  Sandbox.modalInteraction = interaction;
  $("modal-title").textContent = modal.title;
  const fields = [];
  for (const component of modal.components || []) {
    if (component.type === COMPONENT.ROW) {
      for (const child of component.components || []) fields.push(modalField(child, child.label));
    } else if (component.type === COMPONENT.LABEL) {
      fields.push(modalField(component.component, component.label, component.description));
    } else if (component.type === COMPONENT.TEXT) {
      fields.push(el("div", { class: "content", html: md(component.content || "") }));
    }
  }
  $("modal-body").replaceChildren(...fields);
  $("modal-error").textContent = "";
  $("modal-backdrop").hidden = false;
  const first = $("modal-body").querySelector("input, textarea, select");
  if (first) first.focus();
}

function closeModal() {
  $("modal-backdrop").hidden = true;
  Sandbox.modalInteraction = null;
}

async function submitModal(event) {
  event.preventDefault();
  const values = {};
  for (const input of $("modal-body").querySelectorAll("input, textarea, select")) {
    values[input.name] = input.multiple ? [...input.selectedOptions].map((o) => o.value) : input.value;
  }
  $("modal-submit").disabled = true;
  try {
    const result = await api("/sandbox/act", { user: Sandbox.me, action: "modal",
      interaction: Sandbox.modalInteraction, values });
    if (!result.ok) {
      $("modal-error").textContent = result.error;
      return;
    }
    closeModal();
  } finally {
    $("modal-submit").disabled = false;
  }
}

// --- slash commands ----------------------------------------------------------------------------

function flatCommands() {
  const out = [];
  const visit = (prefix, node) => {
    const children = (node.options || []).filter((o) => o.type === OPTION.SUB || o.type === OPTION.GROUP);
    if (!children.length) {
      out.push({ path: prefix, description: node.description, options: node.options || [] });
      return;
    }
    for (const child of children) visit(`${prefix} ${child.name}`, child);
  };
  for (const command of (Sandbox.state && Sandbox.state.commands) || []) visit(command.name, command);
  return out;
}

// Commands grouped as Discord's picker groups them: one heading per game (its top-level
// command), the bot's own commands (help, about, ...) under "Ballcourt". Every command is
// listed (Discord scrolls; it does not stop at 25).
function commandGroups(matches) {
  const groups = new Map();
  for (const command of matches) {
    const top = command.path.split(" ")[0];
    const key = command.path.includes(" ") ? top : "";
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(command);
  }
  const titles = new Map(((Sandbox.state && Sandbox.state.commands) || []).map((c) => [c.name, c.description]));
  return [...groups.entries()]
    .sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b)))
    .map(([key, commands]) => ({
      key: key || "ballcourt",
      title: key ? `/${key}` : "Ballcourt",
      description: key ? titles.get(key) || "" : "General commands",
      commands,
    }));
}

function updateSuggestions() {
  const text = $("composer-input").value;
  const box = $("suggestions");
  if (!text.startsWith("/") || Sandbox.command) {
    box.hidden = true;
    return;
  }
  const typed = text.slice(1).trim().toLowerCase();
  const matches = flatCommands().filter((c) => c.path.startsWith(typed) || c.path.split(" ").some((w) => w.startsWith(typed)));
  const items = [];
  for (const group of commandGroups(matches)) {
    items.push(el("div", { class: "suggestion-group", role: "presentation", "data-group": group.key },
      group.title, el("small", {}, group.description)));
    for (const command of group.commands) {
      items.push(el("button", {
        type: "button", class: "suggestion", role: "option", tabindex: "-1",
        "data-command": command.path, onclick: () => chooseCommand(command),
        onmousemove: (event) => highlight(event.currentTarget),
      }, `/${command.path}`, el("small", {}, command.description || "")));
    }
  }
  box.replaceChildren(...items);
  box.hidden = matches.length === 0;
  const first = box.querySelector(".suggestion");
  if (first) highlight(first, false);
}

// One highlighted entry in a list (commands, or an option's autocomplete choices); the arrow
// keys move it, Enter or Tab takes it.
function highlight(item, scroll = true) {
  if (!item) return;
  for (const other of item.parentElement.querySelectorAll(".active")) other.classList.remove("active");
  item.classList.add("active");
  item.setAttribute("aria-selected", "true");
  if (scroll) item.scrollIntoView({ block: "nearest" });
}

function moveHighlight(list, selector, step) {
  const items = [...list.querySelectorAll(selector)];
  if (!items.length) return;
  const current = items.findIndex((item) => item.classList.contains("active"));
  const next = current < 0 ? (step > 0 ? 0 : items.length - 1) : (current + step + items.length) % items.length;
  highlight(items[next]);
}

function chooseCommand(command) {
  Sandbox.command = command;
  $("composer-input").value = `/${command.path}`;
  $("suggestions").hidden = true;
  const form = $("options-form");
  const fields = command.options.map((option) => optionField(command, option));
  form.replaceChildren(el("div", { class: "form-title" }, `/${command.path}`,
    el("small", { class: "time" }, `  ${command.description || ""}`)), ...fields);
  form.hidden = command.options.length === 0;
  // a required option takes the focus; otherwise Enter in the box sends the command as is
  const first = form.querySelector("[required]");
  (first || $("composer-input")).focus();
}

function optionField(command, option) {
  const id = `opt-${option.name}`;
  let input;
  const base = { id, name: option.name, required: option.required, "data-type": option.type,
    title: option.description };
  if (option.choices && option.choices.length) {
    input = el("select", base, el("option", { value: "" }, option.required ? "choose…" : "(none)"),
      option.choices.map((c) => el("option", { value: String(c.value) }, c.name)));
  } else if (option.type === OPTION.INTEGER || option.type === OPTION.NUMBER) {
    input = el("input", { ...base, type: "number", min: option.min_value, max: option.max_value,
      step: option.type === OPTION.INTEGER ? "1" : "any", placeholder: option.description });
  } else if (option.type === OPTION.BOOLEAN) {
    input = el("select", base, el("option", { value: "" }, "(none)"),
      el("option", { value: "true" }, "True"), el("option", { value: "false" }, "False"));
  } else if (option.type === OPTION.USER || option.type === OPTION.MENTIONABLE) {
    input = el("select", base, el("option", { value: "" }, "choose a member…"),
      Sandbox.state.members.map((m) => el("option", { value: m.id }, m.global_name)));
  } else if (option.type === OPTION.CHANNEL) {
    const allowed = option.channel_types;
    input = el("select", base, el("option", { value: "" }, "choose a channel…"),
      Sandbox.state.channels.filter((c) => !allowed || allowed.includes(c.type))
        .map((c) => el("option", { value: c.id }, `#${c.name}`)));
  } else if (option.type === OPTION.ATTACHMENT) {
    input = el("input", { ...base, type: "file" });
  } else {
    input = el("input", { ...base, type: "text", minlength: option.min_length, maxlength: option.max_length,
      placeholder: option.description });
  }
  const choices = el("div", { class: "choices", id: `choices-${option.name}`, role: "listbox" });
  if (option.autocomplete) {
    let timer = null;
    input.addEventListener("input", () => {
      delete input.dataset.value;
      clearTimeout(timer);
      timer = setTimeout(() => autocomplete(command, option, input, choices), 150);
    });
    input.addEventListener("focus", () => autocomplete(command, option, input, choices));
    // as in Discord: the first choice is highlighted, the arrows move it, Enter or Tab takes
    // it (never the half-typed text); Enter again sends the command
    input.addEventListener("keydown", async (e) => {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        moveHighlight(choices, "button", e.key === "ArrowDown" ? 1 : -1);
        return;
      }
      if (e.key !== "Enter" && e.key !== "Tab") return;
      if (input.dataset.value !== undefined && !choices.children.length) return;  // taken: send
      e.preventDefault();
      clearTimeout(timer);
      if (input.dataset.completedFor !== input.value) await autocomplete(command, option, input, choices);
      const active = choices.querySelector("button.active");
      if (active) active.click();
      else if (e.key === "Enter") send();
      else focusNext(input);
    });
  }
  return el("div", { class: "opt" },
    el("label", { for: id }, option.name, option.required ? el("span", { class: "req" }, " *") : null),
    input, option.autocomplete ? choices : null);
}

async function optionValues(skipFiles) {
  const values = {};
  for (const input of $("options-form").querySelectorAll("input, select")) {
    if (input.type === "file") {
      if (skipFiles || !input.files.length) continue;
      const file = input.files[0];
      const data = await new Promise((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result).split(",")[1]);
        reader.readAsDataURL(file);
      });
      values[input.name] = { filename: file.name, content_type: file.type || "application/octet-stream", data };
    } else if (input.value !== "") {
      values[input.name] = input.dataset.value !== undefined ? input.dataset.value : input.value;
    }
  }
  return values;
}

async function autocomplete(command, option, input, box) {
  const typed = input.value;
  const options = await optionValues(true);
  options[option.name] = typed;
  const result = await api("/sandbox/act", { user: Sandbox.me, channel: Sandbox.channel,
    action: "autocomplete", command: command.path, option: option.name, options });
  if (input.value !== typed) return;  // typed on since: a newer answer is coming
  input.dataset.completedFor = typed;
  if (!result.ok) {
    box.replaceChildren(el("span", { class: "time" }, result.error));
    return;
  }
  box.replaceChildren(...result.choices.map((choice) => el("button", { type: "button",
    role: "option", tabindex: "-1", "data-value": String(choice.value),
    onclick: () => {
      input.value = choice.name;
      input.dataset.value = String(choice.value);
      input.dataset.completedFor = choice.name;
      box.replaceChildren();
    },
  }, choice.name)));
  highlight(box.querySelector("button"), false);
}

function focusNext(input) {
  const fields = [...$("options-form").querySelectorAll("input, select")];
  const next = fields[fields.indexOf(input) + 1];
  (next || $("composer-input")).focus();
}

async function send() {
  const input = $("composer-input");
  const text = input.value.trim();
  if (!text) return;
  if (text.startsWith("/")) {
    let command = Sandbox.command;
    if (!command) {
      command = flatCommands().find((c) => c.path === text.slice(1).trim());
      if (!command) return showError(`No command ${text}. Type / to see the commands.`);
      if (command.options.some((o) => o.required)) return chooseCommand(command);
    }
    const form = $("options-form");
    if (!form.hidden && !form.reportValidity()) return;
    const result = await act({ action: "command", command: command.path, options: await optionValues(false) }, $("send"));
    if (result.ok) resetComposer();
    return;
  }
  const result = await act({ action: "message", content: text }, $("send"));
  if (result.ok) resetComposer();
}

function resetComposer() {
  Sandbox.command = null;
  $("composer-input").value = "";
  $("options-form").hidden = true;
  $("options-form").replaceChildren();
  $("suggestions").hidden = true;
}

// --- start -------------------------------------------------------------------------------------

async function start() {
  const params = new URLSearchParams(location.search);
  Sandbox.me = params.get("user") || localStorage.getItem("sandbox-user") || "";
  // an unknown or missing user: the server picks its first member (alice)
  const first = await api(`/sandbox/state?user=${Sandbox.me}`).catch(() => api("/sandbox/state"));
  Sandbox.me = first.me.id;
  $("user-select").addEventListener("change", (e) => switchUser(e.target.value));
  $("toggle-sidebar").addEventListener("click", () => $("sidebar").classList.toggle("open"));
  $("threads-button").addEventListener("click", openThreadPanel);
  $("thread-panel-close").addEventListener("click", closeThreadPanel);
  $("thread-panel").addEventListener("click", (e) => { if (e.target === $("thread-panel")) closeThreadPanel(); });
  $("select-sheet-close").addEventListener("click", closeSelectSheet);
  $("select-sheet").addEventListener("click", (e) => { if (e.target === $("select-sheet")) closeSelectSheet(); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { closeThreadPanel(); closeSelectSheet(); }
  });
  $("messages").addEventListener("click", (e) => {
    const jump = e.target.closest("a.link[data-channel]");
    if (!jump) return;
    e.preventDefault();
    followJump(jump.dataset.channel, jump.dataset.message);
  });
  for (const button of document.querySelectorAll("button.clock")) {
    button.addEventListener("click", () => advanceClock(Number(button.dataset.advance)));
  }
  const input = $("composer-input");
  input.addEventListener("input", () => {
    if (Sandbox.command && !input.value.startsWith(`/${Sandbox.command.path}`)) resetComposerKeepText();
    updateSuggestions();
  });
  input.addEventListener("keydown", (e) => {
    const list = $("suggestions");
    const open = !list.hidden && !Sandbox.command;
    if (open && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      e.preventDefault();
      moveHighlight(list, ".suggestion", e.key === "ArrowDown" ? 1 : -1);
    } else if (e.key === "Enter" || (e.key === "Tab" && open)) {
      e.preventDefault();
      const active = open && list.querySelector(".suggestion.active");
      if (active) active.click();
      else if (e.key === "Enter") send();
    } else if (e.key === "Escape") resetComposer();
  });
  $("send").addEventListener("click", send);
  Sandbox.stick = true;
  $("messages").addEventListener("scroll", () => {
    const box = $("messages");
    Sandbox.stick = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  });
  $("options-form").addEventListener("submit", (e) => { e.preventDefault(); send(); });
  // Enter in any option sends the command (unless the option took it: an autocomplete choice)
  $("options-form").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.defaultPrevented && e.target.tagName === "INPUT") {
      e.preventDefault();
      send();
    }
  });
  $("modal").addEventListener("submit", submitModal);
  $("modal-cancel").addEventListener("click", closeModal);
  setInterval(renderClock, 15000);
  Sandbox.channel = params.get("channel") || localStorage.getItem("sandbox-channel");
  await switchUser(Sandbox.me);
  document.body.dataset.ready = "true";
}

function resetComposerKeepText() {
  Sandbox.command = null;
  $("options-form").hidden = true;
  $("options-form").replaceChildren();
}

start();
