// The room page: one socket, the lobby, and the game module for the room's game.
import { _, h, toast, announce, interpolate, ngettext, syncClock, serverNow, TEAM_NAMES, TEAM_SYMBOLS } from "./dom.js";
import { applyPatch } from "./patch.js";
import { part, forget, keeping } from "./view.js";
import { modules, knows, loadGame, useStylesheet } from "./games.js";
import * as chat from "./chat.js";

const ROLE_LABELS = { spymaster: _("Spymaster"), operative: _("Operatives"), player: _("Players") };

const root = document.getElementById("room");
const slug = root.dataset.slug;
// A second device (a spymaster's phone) speaks through its personal link, not a session.
const deviceToken = root.dataset.device || null;
// The table view's socket is a visitor's whoever opens it (the server never reads its session).
const tableView = root.dataset.table === "1";
let state = JSON.parse(document.getElementById("room-state").textContent);

// ---- socket with reconnect and backoff -------------------------------------------------
let socket = null;
let retry = 0;
let retryTimer = null;
let refCounter = 0;
const connEl = document.getElementById("conn");
const offline = { el: document.getElementById("offline"), text: document.getElementById("offline-text"), at: 0, timer: null, shown: false };

function setConn(kind) {
  connEl.dataset.state = kind;
  connEl.textContent = { open: _("live"), connecting: _("connecting…"), closed: _("reconnecting…") }[kind];
}

// ---- moves in flight: every tap ends applied, refused with a reason, or said not sent ----
// A move is in flight from its send until the server has surely read it: a push of a
// later version, an error naming its ref, or the pong to a ping sent after it (the server
// answers a socket's frames in order), or for a line of talk its own copy coming back.
// Meanwhile the room bar's dot pulses and the game is marked busy. A socket that closes
// first (a server restarting, a line dropping) leaves its moves to be sent once more on
// the next socket, under the id each was sent with: the server applies an id at most
// once (docs/protocol.md, "id"), so a move that did land is not made twice. A resend that
// goes unanswered too leaves the player told, once the board is back, to check and tap again.
const inFlight = new Map(); // ref -> { version: held when sent, at: Date.now(), action, frame, id, resent }
let unconfirmed = false;
// Whether this socket's server keeps move ids: its states say `move_ids`. During a rolling
// upgrade or a rollback a socket may reach a release without them, which refuses an
// unknown field: no id is sent there, and a move lost on such a socket is not resent.
let socketIds = false;
let resendDue = false; // a new socket: moves left from the last one go out after its first state

// 64 random bits: unique enough per player and room over the 10 minutes the server keeps them.
function moveId() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function pendingChanged() {
  const busy = inFlight.size > 0;
  document.body.classList.toggle("sending", busy);
  document.getElementById("play")?.setAttribute("aria-busy", String(busy));
  if (busy) connEl.dataset.sending = "1";
  else delete connEl.dataset.sending;
}

function settle(done) {
  let changed = false;
  for (const [ref, sent] of inFlight) {
    if (done(ref, sent)) {
      inFlight.delete(ref);
      changed = true;
    }
  }
  if (changed) pendingChanged();
}

// The socket closed: moves sent once wait for the next socket; moves already resent are lost.
function lostInFlight() {
  let lost = false;
  for (const [ref, sent] of inFlight) {
    if (sent.resent) {
      inFlight.delete(ref);
      lost = true;
    }
  }
  if (lost) {
    unconfirmed = true;
    pendingChanged();
  }
}

// On a new socket: each move left from the last one, sent again with its id, ref and `at`,
// then a ping whose pong settles them (a resend that was applied already gets no answer).
function resendInFlight(ws) {
  if (!inFlight.size) return;
  const now = Date.now();
  let resent = 0;
  for (const [ref, sent] of inFlight) {
    if (!sent.id || !socketIds) {
      // Without an id on both sides a resend could apply the move twice: say it instead.
      inFlight.delete(ref);
      unconfirmed = true;
      continue;
    }
    ws.send(sent.frame);
    Object.assign(sent, { resent: true, at: now, version: Infinity });
    resent += 1;
  }
  pendingChanged();
  tellUnconfirmed();
  if (!resent) return;
  Object.assign(line, { pingedAt: now, lastPing: now });
  ws.send(JSON.stringify({ action: "ping", version: state.version }));
}

function tellUnconfirmed() {
  if (!unconfirmed) return;
  unconfirmed = false;
  toast(_("Your last move was not confirmed before the connection dropped: if it is not on the board, tap it again."), "error");
}

// While the socket is down the page says so over the game and takes no taps: a move made
// now would be lost. `message`: a final word (a revoked link) instead of the countdown.
function setInert(inert) {
  for (const id of ["play", "lobby"]) {
    const el = document.getElementById(id);
    if (el) el.inert = inert;
  }
}

function showOffline(message) {
  const tick = () => {
    if (message) {
      offline.text.textContent = message;
      return;
    }
    const left = Math.ceil((offline.at - Date.now()) / 1000);
    offline.text.textContent = left > 0 ? interpolate(_("Reconnecting in %(s)s s…"), { s: left }) : _("Reconnecting…");
  };
  tick();
  clearInterval(offline.timer);
  offline.timer = setInterval(tick, 250);
  if (!offline.shown) {
    offline.shown = true;
    offline.el.hidden = false;
    document.getElementById("offline-retry").hidden = Boolean(message);
    setInert(true);
  }
}

function hideOffline() {
  clearInterval(offline.timer);
  if (!offline.shown) return;
  offline.shown = false;
  offline.el.hidden = true;
  setInert(false);
}

// ---- an honest connection --------------------------------------------------------------
// A phone whose network drops without a reset never sees its socket close: any frame
// proves the line alive, so after a quiet spell without one the page pings, and a ping
// unanswered for ANSWER ms more means the line is dead. While the player can act (a tap
// pending, their turn, a timer running) the spell is QUIET_ACTING: a dead line is called
// lost within 5.25 s (2.5 + 2.5 + a tick). Otherwise QUIET_IDLE, six times sparser: an
// idle page costs the server little (docs/operations.md, "Capacity"), and a tap made then
// is pending at once, which brings the quick cadence back.
const QUIET_ACTING = 2500;
const QUIET_IDLE = 15000;
const ANSWER = 2500;
const TICK = 250;
const line = { heardAt: 0, pingedAt: 0, lastPing: 0, tickAt: 0, timer: null, fresh: true };

// The game says whether it is this player's turn (a module's optional `canAct(state)`).
function canAct() {
  if (inFlight.size) return true;
  const play = state.play;
  if (!play || play.phase === "over") return false;
  if (play.deadline) return true;
  const module = modules[state.game];
  return Boolean(module && module.canAct && module.canAct(state));
}

function watchLine() {
  const now = Date.now();
  // A page frozen (a phone asleep, a background tab) has not been waiting for an answer:
  // ask again rather than call a live line dead.
  const frozen = now - line.tickAt > 4 * TICK;
  line.tickAt = now;
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  if (line.pingedAt && !frozen && now - line.pingedAt > ANSWER) {
    dropLine();
    return;
  }
  if ((frozen || !line.pingedAt) && now - line.heardAt > (canAct() ? QUIET_ACTING : QUIET_IDLE)) {
    line.pingedAt = now;
    line.lastPing = now;
    socket.send(JSON.stringify({ action: "ping", version: state.version }));
  }
}

// Give up on a socket that does not answer: it is left behind (its close may never come)
// and the page reconnects as after any drop.
function dropLine() {
  const dead = socket;
  if (!dead) return;
  socket = null;
  try { dead.close(4000, "no answer"); } catch { /* already closing */ }
  socketClosed(4000);
}

function connect() {
  clearTimeout(retryTimer);
  if (socket) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const path = deviceToken ? `/ws/r/${slug}/device/${deviceToken}/`
    : tableView ? `/ws/r/${slug}/table/` : `/ws/r/${slug}/`;
  const ws = new WebSocket(`${scheme}://${location.host}${path}`);
  socket = ws;
  setConn("connecting");
  offline.at = 0;
  ws.addEventListener("open", () => {
    if (socket !== ws) return;
    setConn("open");
    hideOffline();
    tellUnconfirmed();
    Object.assign(line, { heardAt: Date.now(), pingedAt: 0, tickAt: Date.now(), fresh: true });
    socketIds = false;
    resendDue = true;
    clearInterval(line.timer);
    line.timer = setInterval(watchLine, TICK);
  });
  // The backoff starts over only once the server has spoken: a socket it opens and
  // closes straight away must not be retried in a tight loop.
  ws.addEventListener("message", (event) => {
    if (socket !== ws) return;
    retry = 0;
    line.heardAt = Date.now();
    line.pingedAt = 0;
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      socketIds = message.move_ids === true;
      // Before the state is read: resent moves must not be settled by its version.
      if (resendDue) {
        resendDue = false;
        resendInFlight(ws);
      }
    }
    receive(message);
  });
  ws.addEventListener("close", (event) => {
    if (socket !== ws) return; // a socket already given up on
    socket = null;
    socketClosed(event.code);
  });
}

function socketClosed(code) {
  clearInterval(line.timer);
  lostInFlight();
  setConn("closed");
  if (code === 4403) {
    connEl.textContent = _("link revoked");
    showOffline(_("This link was revoked: ask its owner for the new one."));
    return;
  }
  // 1012: the server is restarting and handed us on; another process takes us at once.
  if (code === 1012) {
    retry = 0;
    connect();
    return;
  }
  // Exponential backoff with jitter, so a restarted server is not stampeded; after
  // "too many from your network" (4008), wait longer still.
  const ceiling = code === 4008 ? 60000 : 10000;
  if (code === 4008) retry = Math.max(retry, 5);
  const delay = Math.min(ceiling, 500 * 2 ** retry) * (0.75 + Math.random() * 0.5);
  retry += 1;
  offline.at = Date.now() + delay;
  showOffline(null);
  retryTimer = setTimeout(connect, delay);
}

// The browser knows before any ping: offline now, and back the moment it is online.
window.addEventListener("offline", dropLine);
window.addEventListener("online", () => {
  if (socket) return;
  retry = 0;
  connect();
});

// A move is sent now or never: not while the line is down (the page is veiled then) nor
// while a ping goes unanswered, when the socket would only queue it. `at` (the server's
// clock as this page reads it) lets the server refuse a move that arrives late anyway.
export function send(message) {
  const suspect = line.pingedAt && Date.now() - line.pingedAt > 1500;
  if (!socket || socket.readyState !== WebSocket.OPEN || suspect) {
    toast(_("Not connected: your move was not sent."), "error");
    return null;
  }
  const ref = ++refCounter;
  const quiet = message.action === "ping" || message.action === "sync" || message.action === "chat_history";
  const stamp = message.action === "ping" || message.action === "sync" ? {} : { at: Math.round(serverNow() * 1000) };
  const id = quiet || !socketIds ? null : moveId();
  const frame = JSON.stringify({ ...message, ...stamp, ...(id ? { id } : {}), ref });
  socket.send(frame);
  if (!quiet) {
    inFlight.set(ref, { version: state.version, at: Date.now(), action: message.action, frame, id, resent: false });
    pendingChanged();
  }
  return ref;
}

function receive(message) {
  if (message.type === "state" || message.type === "patch") {
    settle((ref, sent) => message.version > sent.version);
  } else if (message.type === "error" && message.code === "draining") {
    // Not applied; the 1012 close follows, and the move goes again on the next socket.
    return;
  } else if (message.type === "error" && message.ref !== undefined) {
    settle((ref) => ref === message.ref);
  } else if (message.type === "pong") {
    settle((ref, sent) => sent.at <= line.lastPing);
  } else if (message.type === "chat" && !message.history && state.you
             && message.messages.some((said) => said.author === state.you.id)) {
    let first = true;
    settle((ref, sent) => sent.action === "say" && first && !(first = false));
  }
  if (message.type === "state") {
    // A whole state; an older one arriving late is ignored.
    if (message.version < state.version && message.version !== 0) return;
    const previous = state;
    state = message;
    syncClock(message.now, line.fresh);
    line.fresh = false;
    render(previous);
  } else if (message.type === "patch") {
    if (message.version <= state.version) return;
    if (message.base !== state.version) {
      // A version was missed: ask for the whole state rather than patch the wrong one.
      send({ action: "sync" });
      return;
    }
    const previous = state;
    state = applyPatch(state, message.ops);
    state.version = message.version;
    syncClock(message.now);
    render(previous);
  } else if (message.type === "chat") {
    chat.receive(message);
  } else if (message.type === "error") {
    if (!chat.refused(message)) toast(message.message, "error");
  }
}

// ---- lobby -----------------------------------------------------------------------------
const running = () => Boolean(state.play && state.play.phase !== "over");

function personChip(p) {
  const me = state.you && state.you.id === p.id;
  if (p.bot) {
    // A bot is never "away": it plays from the server. Any player may take it out between games.
    return h("li", { class: "person bot", dataset: { player: p.id } },
      h("span", { class: "bot-mark", "aria-hidden": "true", text: "⚙" }),
      h("span", { class: "name", text: p.name }),
      state.you && !running() ? h("button", { type: "button", class: "remove-bot", "aria-label": interpolate(_("Remove %(name)s"), { name: p.name }),
        onclick: () => send({ action: "remove_bot", bot: p.id }) }, "×") : null);
  }
  return h("li", { class: `person${me ? " me" : ""}${p.connected ? "" : " away"}`, dataset: { player: p.id } },
    h("span", { class: "dot", "aria-hidden": "true" }),
    h("span", { class: "name", text: p.name }),
    me ? h("span", { class: "muted", text: _("(you)") }) : null,
    h("span", { class: "visually-hidden", text: p.connected ? _("connected") : _("away") }));
}

function botButton(team, role, taken) {
  if (!state.you || taken || !state.seating.bots) return null;
  return h("button", { type: "button", class: "add-bot", dataset: { team, role },
    onclick: () => send({ action: "add_bot", team, role }) },
  // A game with one role (its bots play every task in turn) says just "Add a bot".
  role === "player" ? _("Add a bot") : interpolate(_("Add a bot: %(role)s"), { role: ROLE_LABELS[role] || role }));
}

function seatButton(team, role, taken) {
  const you = state.you;
  if (!you) return null;
  if (you.team === team && you.role === role) return null;
  if (taken) return null;
  const label = interpolate(_("Sit here: %(role)s"), { role: ROLE_LABELS[role] || role });
  return h("button", { type: "button", class: "sit", dataset: { team, role },
    onclick: () => send({ action: "sit", team, role }) }, label);
}

// The seats and the waiting list, each redrawn only when what they show changed (view.js).
function renderSeats() {
  const seats = document.getElementById("seats");
  if (!seats) return;
  const you = state.you && { id: state.you.id, team: state.you.team, role: state.you.role };
  const data = { seating: state.seating, players: state.players, you, running: running() };
  part(seats, data, ({ seating }) => seating.teams.map((team) => {
    const members = state.players.filter((p) => p.team === team);
    return h("section", { class: `team team-${team}`, dataset: { team } },
      h("h2", {}, h("span", { "aria-hidden": "true", text: TEAM_SYMBOLS[team] || "" }), TEAM_NAMES[team] || team),
      seating.roles.map((role) => {
        const holders = members.filter((p) => p.role === role);
        const taken = seating.single_roles.includes(role) && holders.length > 0;
        return h("div", { class: "role", dataset: { role } },
          h("h3", { text: ROLE_LABELS[role] || role }),
          h("ul", { class: "people" }, holders.map(personChip)),
          seatButton(team, role, taken), botButton(team, role, taken));
      }));
  }));
  part(document.getElementById("spectators"), data, () => {
    const watchers = state.players.filter((p) => p.role === "spectator" && p.watching);
    // Newcomers who have not sat down yet: "Shuffle teams" deals them in.
    const waiting = state.players.filter((p) => p.role === "spectator" && !p.watching);
    return [
      waiting.length ? h("h3", { text: _("Not seated yet") }) : null,
      waiting.length ? h("ul", { class: "people", id: "waiting" }, waiting.map(personChip)) : null,
      watchers.length ? h("h3", { text: _("Spectators") }) : null,
      watchers.length ? h("ul", { class: "people", id: "watching" }, watchers.map(personChip)) : null,
      you && you.role !== "spectator"
        ? h("button", { type: "button", class: "sit", onclick: () => send({ action: "sit", team: "", role: "spectator" }) }, _("Just watch"))
        : null];
  });
  const select = document.getElementById("game-select");
  select.value = state.game;
}

const LANGUAGES = { en: "English", it: "Italiano", "pt-br": "Português (Brasil)", ca: "Català", sv: "Svenska" };

function renderWords() {
  const panel = document.getElementById("words-panel");
  if (!panel || !state.you || !state.stored) return;
  // The saved words never come back from the server (only how many): pasting replaces them.
  const options = ((state.settings.words || {})[state.game]) || { mode: "pack", count: 0 };
  part(panel, { options, game: state.game, language: state.language || "en" }, () => {
    const language = h("select", { id: "words-language", "aria-label": _("Word language") },
      Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, text: name })));
    language.value = state.language || "en";
    language.addEventListener("change", () => send({ action: "set_language", language: language.value }));
    const mode = h("select", { id: "words-mode", "aria-label": _("Which words") },
      h("option", { value: "pack", text: _("The word pack") }),
      h("option", { value: "own", text: _("Only our own words") }),
      h("option", { value: "mixed", text: _("Our words mixed into the pack") }));
    mode.value = options.mode;
    const text = h("textarea", { id: "words-text", rows: 4, placeholder: _("One word per line, or separated by commas") });
    return h("details", { class: "words" },
      h("summary", { text: interpolate(ngettext("Words: %(language)s, %(n)s of your own", "Words: %(language)s, %(n)s of your own", options.count || 0), { language: LANGUAGES[state.language] || state.language, n: options.count || 0 }) }),
      h("label", { for: "words-language" }, _("Language of the words")), language,
      h("form", { onsubmit: (event) => {
        event.preventDefault();
        send({ action: "set_words", game: state.game, mode: mode.value, text: text.value });
      } },
      h("label", { for: "words-mode" }, _("Deal from")), mode,
      h("label", { for: "words-text" }, _("Your own words")), text,
      h("p", { class: "hint", text: interpolate(ngettext("Used from the next game, which needs at least %(n)s of your own word.", "Used from the next game, which needs at least %(n)s of your own words.", state.seating.words_minimum), { n: state.seating.words_minimum }) }),
      h("button", { type: "submit", id: "words-save" }, _("Save words"))));
  });
}

// While a game runs, the lobby folds away under the board (a phone's screen is short);
// once the player opens or closes it themselves, their choice stands.
let lobbyChosen = false;
let lobbyExpected = true;
const lobbyDetails = document.getElementById("lobby-details");
if (lobbyDetails) {
  lobbyDetails.addEventListener("toggle", () => { if (lobbyDetails.open !== lobbyExpected) lobbyChosen = true; });
}

function foldLobby() {
  if (!lobbyDetails) return;
  const count = document.getElementById("lobby-count");
  if (count) count.textContent = `(${state.players.length})`;
  const running = Boolean(state.play && state.play.phase !== "over");
  if (lobbyChosen || lobbyDetails.open === !running) return;
  lobbyExpected = !running;
  lobbyDetails.open = !running;
}

// ---- the TV's lobby (static/js/tvlobby.js, loaded only by the table view) ----------------
let tvLobby = null;
if (tableView) {
  // The TV hides the site's header: its language switcher moves into the room's bar.
  const languages = document.querySelector("header.site form.lang");
  if (languages) document.querySelector(".room-bar").insertBefore(languages, connEl);
  // The join link read from the sofa breaks only between its parts (the address, /r/,
  // the room's name), never inside one: each part shrinks to fit the column if it must.
  const link = document.getElementById("share-link");
  if (link) {
    const parts = link.textContent.trim().match(/^(\w+:\/\/[^/]+)(\/r\/)(.*)$/);
    if (parts) {
      link.replaceChildren(...parts.slice(1).flatMap((text, i) => {
        const piece = h("span", { class: "table-link-part", text });
        piece.style.setProperty("--len", String(text.length));
        return i ? [h("wbr"), piece] : [piece];
      }));
    }
  }
  import("./tvlobby.js").then((module) => {
    tvLobby = module.tvLobby(ROLE_LABELS);
    render(null);
  }, (error) => console.error(error));
}

// ---- your seat, on every screen -------------------------------------------------------------
// The room bar says who you are ("◆ Red · Spymaster"; the game words it) and the page's
// frame wears your team's colour; a visitor or a spectator has neither.
function renderSeatLabel(module) {
  const label = document.getElementById("seat-label");
  const you = state.you;
  let seat = module && module.seatLabel ? module.seatLabel(state) : null;
  if (!seat && !(module && module.seatLabel) && you && you.role !== "spectator" && TEAM_NAMES[you.team]) {
    seat = { team: you.team, text: `${TEAM_SYMBOLS[you.team]} ${TEAM_NAMES[you.team]}` };
  }
  if (seat) document.body.dataset.seatTeam = seat.team;
  else delete document.body.dataset.seatTeam;
  if (!label) return;
  label.hidden = !seat;
  label.textContent = seat ? seat.text : "";
  label.className = seat ? `seat-label seat-${seat.team}` : "seat-label";
}

// A deal brings the board into view: a phone scrolled down to the seats would not see it.
function showDeal(previous) {
  const play = state.play;
  if (!previous || !play || play.phase === "over") return;
  if (previous.play && previous.play.number === play.number && previous.game === state.game) return;
  const el = document.getElementById("play");
  const top = el.getBoundingClientRect().top;
  // To the whole pixel at or above the game's top: a bar of fractional height must not
  // leave its first row a fraction of a pixel under the window's edge.
  if (top < 0 || top > window.innerHeight / 3) window.scrollTo({ top: Math.max(0, Math.floor(window.scrollY + top)) });
}

let gameModule = null;
function render(previous) {
  renderSeats();
  renderWords();
  foldLobby();
  const play = document.getElementById("play");
  // A room nobody has joined yet has no game of its own (the server's state names the
  // default one, not the game its link asked for): its landing is the join form and the
  // invitation, with no game's lobby under them.
  const fresh = !state.stored && !tableView;
  root.classList.toggle("fresh", fresh);
  const module = fresh ? null : modules[state.game];
  if (!fresh && !module && knows(state.game)) {
    loadGame(state.game).then(() => render(null), (error) => console.error(error));
  }
  if (module !== gameModule) {
    play.replaceChildren();
    forget(play);
    gameModule = module;
    if (module) useStylesheet(state.game);
  }
  // The game draws its screen in parts (view.js), each keeping what the player is doing;
  // around the whole, the same helper carries open panels and focus over a change of
  // screen (the lobby giving way to a dealt game).
  if (tableView && !state.play) {
    const players = state.players.map((p) => ({ name: p.name, team: p.team, role: p.role, bot: Boolean(p.bot), connected: p.connected, watching: p.watching }));
    if (tvLobby) part(play, { game: state.game, seating: state.seating, players }, tvLobby);
  } else if (module) keeping(play, () => module.render(play, state, { send, previous, toast, announce }));
  renderSeatLabel(module);
  if (module) showDeal(previous);
  // A fresh room keeps the page's title, which names the game its link asked for.
  if (!fresh) {
    const gameTitle = module && module.title ? module.title(state) : null;
    document.title = `${gameTitle || slug} · Wordrooms`;
  }
  document.body.dataset.game = state.game;
  chat.update(state);
  keepAwake(wantsAwake());
}

// ---- the key phone stays awake while a game runs (Screen Wake Lock, where the browser has
// it): a spymaster's key dimming to black mid-turn is a game stopped. Released at the end;
// the browser drops the lock when the page is hidden, so it is asked again on return.
const wake = { lock: null, asking: false };
const wantsAwake = () => running() && Boolean(deviceToken || (state.you && state.you.role === "spymaster"));

async function keepAwake(on) {
  if (!navigator.wakeLock || wake.asking) return;
  if (on && !wake.lock && document.visibilityState === "visible") {
    wake.asking = true;
    try {
      wake.lock = await navigator.wakeLock.request("screen");
      wake.lock.addEventListener("release", () => { wake.lock = null; });
    } catch { /* refused (battery saver, a policy): the screen may sleep */ }
    wake.asking = false;
  } else if (!on && wake.lock) {
    const held = wake.lock;
    wake.lock = null;
    held.release().catch(() => {});
  }
}
document.addEventListener("visibilitychange", () => keepAwake(wantsAwake()));

// ---- controls --------------------------------------------------------------------------
const on = (id, kind, handler) => {
  const el = document.getElementById(id);
  if (el) el.addEventListener(kind, handler);
};
on("game-select", "change", (event) => send({ action: "set_game", game: event.target.value }));
on("shuffle", "click", () => send({ action: "shuffle" }));
const renameForm = document.getElementById("rename");
if (renameForm) {
  renameForm.addEventListener("submit", (event) => {
    event.preventDefault();
    send({ action: "rename", name: document.getElementById("rename-input").value });
  });
}
// Where the phone has a share sheet, the invite goes through it; elsewhere it is copied.
const copyButton = document.getElementById("copy-link");
if (copyButton && navigator.share) copyButton.textContent = copyButton.dataset.share;
on("copy-link", "click", async (event) => {
  const input = document.getElementById("share-link");
  if (navigator.share) {
    try {
      await navigator.share({ title: document.title, url: input.value });
      return;
    } catch (error) {
      if (error && error.name === "AbortError") return;  // the player closed the sheet
    }
  }
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  toast(event.target.dataset.copied);
});

on("offline-retry", "click", () => { retry = 0; connect(); });

// ---- the rules dialog (the sound switch is sound.js's) ---------------------------------------
const howto = document.getElementById("howto");
on("howto-open", "click", async (event) => {
  const module = modules[state.game];
  const rules = document.getElementById("howto-rules");
  rules.replaceChildren(...(module && module.houseRulesSummary ? module.houseRulesSummary(state) : []));
  const body = document.getElementById("howto-body");
  howto.showModal();
  howto.scrollTop = 0;
  try {
    // The page was served for one game; the room may have switched since.
    const url = event.currentTarget.dataset.url.replace(/\/how-to-play\/[^/]+\//, `/how-to-play/${state.game}/`);
    const response = await fetch(`${url}?bare=1`, { credentials: "same-origin" });
    if (!response.ok) throw new Error(String(response.status));
    // The rules are this site's own static page, parsed rather than injected as a string.
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    body.replaceChildren(...doc.body.childNodes);
    const section = module && module.howtoSection ? module.howtoSection(state) : null;
    // The dialog opens at its top, the room's house rules first; a link under them leads
    // to the variant being played (its heading, in the page's own words).
    const target = section && body.querySelector(`#${section}`);
    const heading = target && (target.matches("h2, h3") ? target : target.querySelector("h2, h3"));
    if (heading) {
      rules.append(h("p", { class: "howto-jump" }, h("a", { href: `#${section}`, id: "howto-jump",
        onclick: (e) => { e.preventDefault(); target.scrollIntoView({ block: "start" }); } }, `↓ ${heading.textContent.trim()}`)));
    }
  } catch {
    body.replaceChildren(h("p", { class: "error", text: _("The rules could not be loaded. Check your connection.") }));
  }
});
on("howto-close", "click", () => howto.close());

syncClock(state.now);
chat.start({ slug, send, tableView });
render(null);
connect();
