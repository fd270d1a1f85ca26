// Table talk: what the room's lines are and how many are unread; the drawer that shows
// them (chatpanel.js, with its stylesheet) loads the first time someone opens it, so a
// page whose player never chats carries only this. The server decides who reads what
// (docs/protocol.md, "Table talk"); mutes are this screen's own, kept per room.
import { _, h, interpolate, ngettext } from "./dom.js";

const KEEP = 200; // lines held per channel on this screen

export const chat = {
  ctx: null, // { slug, send, tableView }
  you: null,
  open: false,
  tab: "room",
  lines: { room: [], team: [] },
  unread: { room: 0, team: 0 },
  muted: new Set(),
  panel: null, // chatpanel.js once loaded
  tv: null, // the TV's read-only lines (?chat=1)
  els: null,
};

const muteKey = () => `wordrooms.mute.${chat.ctx.slug}`;
export const myTeam = () => (chat.you && chat.you.team) || "";

export function saveMutes() {
  try { localStorage.setItem(muteKey(), JSON.stringify([...chat.muted])); } catch { /* private mode */ }
}

function drawBadge() {
  const { badge, toggle } = chat.els;
  const count = chat.open ? chat.unread.room + chat.unread.team - chat.unread[chat.tab] : chat.unread.room + chat.unread.team;
  badge.hidden = count === 0;
  badge.textContent = count > 99 ? "99+" : String(count);
  toggle.setAttribute("aria-label", count ? interpolate(ngettext("Chat, %(n)s unread", "Chat, %(n)s unread", count), { n: count }) : _("Chat"));
}

export function redraw() {
  if (chat.tv) drawTv();
  if (chat.panel) chat.panel.draw();
  drawBadge();
}

// ---- the TV's talk (?chat=1) ---------------------------------------------------------------
// The room's channel read in the table view's sidebar, in TV type: nothing to type, no
// reactions to tap, no names to mute (nobody touches a TV), never over the game. Only the
// newest lines show; the oldest are cut at the top (table.css).
const TV_KEEP = 30;

function drawTv() {
  const lines = chat.lines.room.slice(-TV_KEEP);
  chat.tv.list.replaceChildren(...lines.map((line) => h("li", { class: "tv-chat-line", dataset: { id: String(line.id) } },
    h("span", { class: "tv-chat-who", text: line.name }), " ", h("span", { class: "tv-chat-text", text: line.text }))));
  chat.tv.empty.hidden = lines.length > 0;
}

function mountTv() {
  const list = h("ol", { class: "tv-chat-lines", "aria-live": "polite", "aria-relevant": "additions" });
  const empty = h("p", { class: "tv-chat-empty", text: _("Everyone in the room reads this channel.") });
  const box = h("section", { class: "tv-chat", id: "tv-chat", "aria-label": _("Chat") },
    h("h2", { class: "tv-chat-title", text: _("Chat") }), list, empty);
  document.getElementById("room").append(box);
  chat.tv = { box, list, empty };
}

let loading = null;
function panel() {
  if (!loading) {
    const css = document.getElementById("room").dataset.chatCss;
    if (css) document.head.append(h("link", { rel: "stylesheet", href: css }));
    loading = import("./chatpanel.js").then((module) => {
      chat.panel = module.mount(chat, { setOpen, redraw, myTeam, saveMutes });
      return chat.panel;
    }, (error) => { loading = null; throw error; });
  }
  return loading;
}

export function setOpen(value) {
  chat.open = value;
  chat.els.toggle.setAttribute("aria-expanded", String(value));
  document.body.classList.toggle("chat-open", value);
  if (value) chat.unread[chat.tab] = 0;
  panel().then((drawer) => { drawer.show(value); drawBadge(); }, (error) => console.error(error));
  if (!value) chat.els.toggle.focus();
  drawBadge();
}

function add(line) {
  const held = chat.lines[line.channel === "team" ? "team" : "room"];
  if (held.some((l) => l.id === line.id)) return false;
  held.push(line);
  held.sort((a, b) => a.id - b.id);
  if (held.length > KEEP) held.splice(0, held.length - KEEP);
  return true;
}

// A `chat` frame: the recent history (replacing what is held) or a line just said.
export function receive(message) {
  if (!chat.els) return;
  if (message.history) {
    chat.lines.room = [];
    chat.lines.team = [];
    for (const line of message.messages) add(line);
  } else {
    for (const line of message.messages) {
      if (!add(line)) continue;
      const channel = line.channel === "team" ? "team" : "room";
      const mine = chat.you && line.author === chat.you.id;
      if (!mine && !chat.muted.has(line.author) && !(chat.open && channel === chat.tab)) chat.unread[channel] += 1;
    }
  }
  redraw();
}

// An error about a line, shown in the open drawer where the player looks.
export function refused(message) {
  if (!chat.panel || !chat.open || !String(message.code || "").startsWith("chat_")) return false;
  chat.panel.note(message.message);
  return true;
}

let seen = false;
// Each new state: the seat decides the channels; a new team asks for its history.
export function update(state) {
  if (!chat.els) return;
  const before = myTeam();
  chat.you = state.you;
  // The socket's first history covers the seat it opened with; a later team asks again.
  if (seen && myTeam() !== before) {
    chat.lines.team = [];
    chat.unread.team = 0;
    if (myTeam()) chat.ctx.send({ action: "chat_history" });
  }
  seen = true;
  redraw();
}

export function start(ctx) {
  chat.ctx = ctx;
  try {
    chat.muted = new Set(JSON.parse(localStorage.getItem(muteKey()) || "[]"));
  } catch {
    chat.muted = new Set();
  }
  // The opener lives in the room bar (the page's template), never over the game; the
  // drawer opens in the page's flow under the bar, so it pushes the game down rather
  // than covering any of it.
  let toggle = document.getElementById("chat-toggle");
  if (!toggle) {
    toggle = h("button", { type: "button", class: "chat-toggle", "aria-expanded": "false", "aria-controls": "chat-drawer" },
      h("span", { "aria-hidden": "true", text: "💬" }), h("span", { class: "chat-toggle-label", text: _("Chat") }),
      h("span", { class: "chat-badge", hidden: true, "aria-hidden": "true" }));
  }
  toggle.addEventListener("click", () => setOpen(!chat.open));
  toggle.hidden = false;
  const badge = toggle.querySelector(".chat-badge");
  const wrap = h("div", { class: "chat" });
  const bar = document.querySelector(".room-bar");
  if (bar && !ctx.tableView) {
    bar.after(wrap);
  } else {
    wrap.append(toggle);
    document.body.append(wrap);
  }
  chat.els = { wrap, toggle, badge };
  // When play passes to this player the open drawer yields: one line, out of the way.
  document.addEventListener("wordrooms:turn", () => { if (chat.open && chat.panel) chat.panel.strip(true); });
  if (ctx.tableView) {
    // A TV shows no talk, unless its address asks for the room's channel (?chat=1): a
    // screen nobody touches has no switch of its own, nor the players' drawer.
    wrap.hidden = true;
    if (new URLSearchParams(location.search).get("chat") === "1") mountTv();
  }
  drawBadge();
}
