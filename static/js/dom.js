// Small DOM helpers shared by the room and the games. User text only ever goes
// through textContent (never innerHTML), so a name like "<b>" shows as typed.
import { play, soundOn } from "./sound.js";

export const _ = (text) => (window.gettext ? window.gettext(text) : text);
export const interpolate = (fmt, obj) =>
  window.interpolate ? window.interpolate(fmt, obj, true) : fmt.replace(/%\((\w+)\)s/g, (m, k) => String(obj[k]));
// A count's text in the language's form for it (Italian "1 rimasto", "3 rimasti"), never
// `n === 1 ? … : …`: Brazilian Portuguese says "0 restante". Called by this name, with
// literal strings, so that makemessages finds both forms.
export const ngettext = (singular, plural, n) =>
  window.ngettext ? window.ngettext(singular, plural, n) : n === 1 ? singular : plural;

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

let toastTimer = null;
export function toast(message, kind = "info") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = message;
  el.classList.toggle("error", kind === "error");
  el.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove("show"), 3500);
}

export function announce(message) {
  const el = document.getElementById("announce");
  if (el) {
    el.textContent = "";
    // A fresh text node makes screen readers speak even a repeated message.
    setTimeout(() => { el.textContent = message; }, 30);
  }
}

// The server's clock as this browser sees it: deadlines come in the server's seconds,
// and a phone's clock can be minutes off.
// A frame's "now" is older than it reads by the time the frame spent on the way, so of a
// connection's frames the least delayed (the largest skew) tells the clock best; `fresh`
// (a new connection) starts over.
let skew = null;
export function syncClock(serverNow, fresh = false) {
  if (typeof serverNow !== "number") return;
  const sample = serverNow - Date.now() / 1000;
  skew = fresh || skew === null ? sample : Math.max(skew, sample);
}
export const serverNow = () => Date.now() / 1000 + (skew ?? 0);

// Every team of every game: its name and its symbol (colour never speaks alone).
export const TEAM_NAMES = { red: _("Red"), blue: _("Blue"), white: _("White"), black: _("Black") };
export const TEAM_SYMBOLS = { red: "◆", blue: "●", white: "○", black: "■" };

// A player not seated yet picks a team in one tap (its open role: `role`).
export function teamPicker(teams, role, send) {
  return h("div", { class: "seat-offer" }, h("p", { text: _("Pick a team to play:") }),
    h("div", { class: "row" }, teams.map((team) => h("button", { type: "button", class: `join-team team-${team}`, id: `sit-${team}`,
      onclick: () => send({ action: "sit", team, role }) }, `${TEAM_SYMBOLS[team]} ${TEAM_NAMES[team]}`))));
}

// ---- turn alerts: a banner, a sound and a buzz when play passes to this player ------------
// Sound is on unless the player muted it (the room bar's switch, sound.js).
export { soundOn };
export const beep = () => play("turn");

let bannerTimer = null;
// `mine`: this player must act now (sound, vibration, the strong look); otherwise a
// quieter banner tells everyone whose turn it is.
export function turnAlert(text, { mine = false, kind = "" } = {}) {
  const el = document.getElementById("turn-banner");
  // "Your turn" wears the player's team colour (the room bar's seat label sets it).
  if (mine && !kind) kind = document.body.dataset.seatTeam || "";
  if (el) {
    // Below the room bar while it is on screen: the banner never hides the seat it names.
    const bar = document.querySelector(".room-bar");
    const below = bar ? bar.getBoundingClientRect().bottom : 0;
    el.style.top = below > 0 ? `${Math.round(below) + 6}px` : "";
    // There it fades in and out rather than slide across the bar.
    const place = below > 0 ? " below" : "";
    el.textContent = text;
    el.className = `turn-banner show${place}${mine ? " mine" : ""}${kind ? " " + kind : ""}`;
    clearTimeout(bannerTimer);
    bannerTimer = setTimeout(() => { el.className = `turn-banner${place}`; }, mine ? 2600 : 1800);
  }
  if (mine) {
    // The chat drawer (chat.js) yields to the turn.
    document.dispatchEvent(new CustomEvent("wordrooms:turn"));
    beep();
    if (soundOn() && navigator.vibrate) navigator.vibrate([120, 60, 120]);
  }
}

// "m:ss", or null once the time is up.
export function clockText(left) {
  if (left <= 0) return null;
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}
