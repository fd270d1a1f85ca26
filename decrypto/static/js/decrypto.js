// Decrypto: renders the state the server sent for this browser. The server decides what
// this seat may know (the engine's view_for); nothing here hides anything it was given.
//
// The page is a fixed column of parts (view.js): each is redrawn only when the slice of
// the state it shows changed, and inputs being typed in are patched, never rebuilt, so a
// push caused by someone else never steals the focus or the caret from a player typing.
import { _, h, interpolate, ngettext, turnAlert, teamPicker, TEAM_NAMES } from "./dom.js";
import { part, forget, slots } from "./view.js";
import { countdown, scoreLine, houseRules as houseRulesPanel, checkField, secondsInput } from "./ui.js";
import { DIGITS, OTHER, TASKS, cur, fmtCode, lookOf, seatColour, send, teamName, teamTag } from "./decrypto/common.js";
import { head, status, statusText, reveals, REASONS } from "./decrypto/status.js";
import { encryptPanel, patchClues, stopDraft } from "./decrypto/encrypt.js";
import { guessPanel, patchGuess } from "./decrypto/guess.js";
import { keywordsSlot, sheetsSlot, taskSheetSlot, patchNotes, orderSlot, fitSheets } from "./decrypto/sheets.js";
export { seatLabel } from "./decrypto/seat.js";

// Top: always first. Main: what to do now. Side: the team's papers (a second column on wide screens).
// The sheet a task needs ("tasksheet") comes right under the task, before the reveals.
const LAYOUT = { top: ["head", "status"], main: ["end", "encrypt", "guess", "tiebreak", "tasksheet", "reveal"], side: ["keywords", "sheets", "order", "abandon"] };
let lastHistory = null;
// The tie-break's screens, fetched only when a game reaches one (most never do).
let tiebreak = null;
let tiebreakLoading = null;
// The newest screen's redraw: a state that arrives while the module is on its way must be
// the one drawn when it lands (the first screen's redraw would find itself stale and skip).
let tiebreakRedraw = null;

function tiebreakPart(el, data, redraw) {
  if (!data.tiebreak) {
    part(el, null, () => null);
    return;
  }
  if (!tiebreak) {
    tiebreakRedraw = redraw;
    tiebreakLoading = tiebreakLoading || import("./decrypto/tiebreak.js").then((module) => {
      tiebreak = module;
      tiebreakRedraw();
    }, () => { tiebreakLoading = null; });
    return;
  }
  part(el, data, tiebreak.tiebreakSlot);
}

// ---- the end, the lobby, abandoning ----------------------------------------------------------
function scoreboard(board) {
  return scoreLine(board, ["white", "black"], [
    board.shared ? interpolate(_("shared victories: %(n)s"), { n: board.shared }) : null,
    board.interceptor || board.team_of_two ? interpolate(_("Interceptor %(a)s – %(b)s team of two"), { a: board.interceptor || 0, b: board.team_of_two || 0 }) : null,
  ], "dc-scoreboard");
}

const boardOf = (state) => (state.scoreboard && state.scoreboard.decrypto) || {};
const canPlay = (you) => Boolean(you && you.role !== "spectator");

// The end: who won and why, large, then every keyword of both teams (the big reveal), all
// in the first screenful of a phone; the rounds' history follows below.
function endSlot({ over, board, seated, outcome, keywords }) {
  if (!over) return null;
  const winners = outcome ? outcome.winners : [];
  const who = winners.length === 2 ? _("Both teams win")
    : winners.length ? interpolate(_("%(team)s wins"), { team: teamName(winners[0]) }) : _("Game over");
  const reason = outcome ? REASONS[outcome.reason] || outcome.reason : "";
  const teams = ["white", "black"].filter((t) => keywords[t] && keywords[t].length);
  return h("section", { class: "dc-end", "aria-labelledby": "dc-winner" },
    h("h3", { class: "dc-winner", id: "dc-winner", text: who }),
    reason ? h("p", { class: "dc-why", text: `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.` }) : null,
    h("div", { class: "dc-end-keywords" }, teams.map((t) => h("section", {
      class: `dc-end-team dc-${seatColour(t)}${winners.includes(t) ? " dc-won" : ""}`, dataset: { team: t },
      "aria-label": interpolate(_("%(team)s's keywords"), { team: teamName(t) }) },
    h("h4", {}, teamTag(t)),
    h("ol", { class: "dc-end-words" }, DIGITS.map((d) => h("li", {},
      h("span", { class: "dc-digit", text: String(d) }), h("span", { class: "dc-word", text: keywords[t][d - 1] || "" }))))))),
    scoreboard(board),
    seated ? h("button", { type: "button", class: "primary dc-wide", id: "dc-next-game", onclick: () => send({ action: "start_game" }) }, _("Next game")) : null);
}

// The team whose sheet the seat's task needs: the code's team while guessing it (the
// opponents' when intercepting, the own team's when deciphering), the opponents' in the
// tie-break.
function taskTeam(play) {
  const team = play.seat.team;
  if (!team) return null;
  if (play.phase === "guess" && play.current && play.current.guess) return play.current.team;
  if (play.phase === "tiebreak") return OTHER[team];
  return null;
}

function abandonSlot({ shown }) {
  if (!shown) return null;
  return h("details", { class: "dc-abandon" }, h("summary", { text: _("New game…") }),
    h("button", { type: "button", class: "danger", id: "dc-abandon", onclick: () => {
      if (confirm(_("Abandon this game and deal a new one?"))) send({ action: "start_game", confirm: true });
    } }, _("Abandon and deal again")));
}

// The late Encryptor's timer (DC-8): the room's setting, else the server's default.
function timerSeconds(state) {
  const options = (state.settings && state.settings.decrypto) || {};
  return options.timer_seconds === undefined ? state.timers.timer_seconds.default : options.timer_seconds;
}

function timerText(seconds) {
  return seconds === null ? _("No timer: the second Encryptor takes their time.")
    : interpolate(ngettext("Timer: when one Encryptor has sent, the other has %(n)s second.", "Timer: when one Encryptor has sent, the other has %(n)s seconds.", seconds), { n: seconds });
}

// For the rules dialog: this room's house rules, above the game's rules.
// Whether this player has a task now (room.js pings more often then).
export function canAct(state) {
  const play = state.play;
  return Boolean(play && play.phase !== "over" && play.seat && play.seat.tasks.length > 0);
}

export function houseRulesSummary(state) {
  return [h("h3", { text: _("This room's house rules") }), h("p", { text: timerText(timerSeconds(state)) })];
}

// The rules dialog opens at the variant being played (or about to be).
export function howtoSection(state) {
  if (state.play) return state.play.mode === "interceptor" ? "interceptor" : state.play.phase === "tiebreak" || state.play.phase === "judge" ? "tiebreak" : "standard";
  return state.deal.mode === "interceptor" ? "interceptor" : "standard";
}

function houseRules({ seconds, range, editable }) {
  const intro = [h("p", { class: "dc-rules-summary", text: timerText(seconds) }),
    h("p", { class: "hint", text: _("Clues are about meaning: not spelling, letter counts, positions or rhymes, and only public knowledge. Never read the code aloud.") })];
  if (!editable) return houseRulesPanel({ intro });
  const timer = h("input", { type: "checkbox", id: "dc-hr-timer", checked: seconds === null ? null : true });
  const value = secondsInput("dc-hr-seconds", range, seconds);
  return houseRulesPanel({ intro, saveId: "dc-hr-save",
    fields: [checkField(timer, _("Timer for the second Encryptor")), h("label", {}, _("Seconds"), value)],
    save: () => send({ action: "house_rules", timer: timer.checked, timer_seconds: Number(value.value) }) });
}

// `players`: the seated ones; `deal`: what a deal would be now (the server's word).
function lobby({ players, you, teams, board, deal, rules }) {
  const white = players.filter((p) => p.team === "white").length;
  const black = players.filter((p) => p.team === "black").length;
  const three = deal.mode === "interceptor" && deal.ready;
  let hint;
  if (three) hint = _("Three players: the Interceptor variant. The two players in one team share four keywords; the lone player intercepts their codes.");
  else if (deal.ready) hint = _("Ready for a standard game: two teams, four secret keywords each.");
  else hint = _("Seat 2 to 4 players in each team (sizes may differ by one), or exactly three players (two and one) for the Interceptor variant.");
  const firstOfTeam = you && players.find((p) => p.team === you.team);
  let offer = null;
  if (you && you.role === "spectator") {
    offer = teamPicker(teams, "player", send);
  } else if (firstOfTeam && firstOfTeam.id === you.id) {
    // DC-5: the rotation follows the order of arrival, so the first seated player encrypts first.
    offer = h("p", { class: "seat-offer", id: "dc-first-encryptor", text: interpolate(_("You will be %(team)s's first Encryptor."), { team: TEAM_NAMES[you.team] }) });
  }
  return h("section", { class: "dc-lobby" }, h("h2", { text: _("Decrypto") }), scoreboard(board), offer,
    h("p", { class: "hint", id: "dc-seat-hint", text: hint }),
    h("p", { class: "muted", text: interpolate(_("Seated: %(w)s White, %(b)s Black."), { w: white, b: black }) }),
    canPlay(you) ? h("button", { type: "button", class: "primary dc-wide", id: "dc-deal", dataset: { mode: three ? "interceptor" : "standard" },
      disabled: deal.ready ? null : true, "aria-describedby": "dc-seat-hint",
      onclick: () => send(three ? { action: "start_game", mode: "interceptor" } : { action: "start_game" }) },
    three ? _("Deal: Interceptor variant") : _("Deal a new game"))
      : h("p", { class: "muted", text: _("Take a seat to deal a game.") }),
    houseRules(rules));
}

// ---- the view --------------------------------------------------------------------------------
const tableView = () => document.body.classList.contains("table-view");
// A TV's window resized (a browser leaving full screen): the sheets' columns fit anew.
window.addEventListener("resize", () => {
  const sheets = document.querySelector(".dc-slot-sheets");
  if (sheets && tableView()) fitSheets(sheets);
});

function resetLocal(play) {
  const at = `${play.number}:${play.round}:${play.phase}`;
  if (cur.local.at === at) return;
  stopDraft();
  cur.local = { at, clues: ["", "", ""], cluesDirty: false, notes: cur.local.notes, guess: null, words: ["", "", "", ""], accept: new Set() };
}

function announce(play, ctx) {
  if (lastHistory !== null && play.history.length > lastHistory) {
    const entry = play.history[play.history.length - 1];
    ctx.announce(interpolate(_("%(team)s's code was %(code)s"), { team: teamName(entry.team), code: fmtCode(entry.code) }));
  }
}

// A banner and a buzz when this player has something to do; the result for everyone.
let lastAlert = { game: null, key: null, mine: false };
function alertTurn(play) {
  const key = `${play.round}:${play.phase}`;
  const mine = play.phase !== "over" && play.seat.tasks.length > 0;
  const previous = lastAlert;
  lastAlert = { game: play.number, key, mine };
  if (previous.game !== play.number) return;  // a page just opened, or a new deal
  if (play.phase === "over" && previous.key !== key) turnAlert(statusText(play));
  else if (mine && (!previous.mine || previous.key !== key)) turnAlert(`${_("Your turn")}: ${TASKS[play.seat.tasks[0]] || ""}`.replace(/: $/, ""), { mine: true });
}

// ---- motion and sound at a live change ---------------------------------------------------
// Only a step of the game seen as it happens: a state that arrives on reconnecting may
// skip many moves (its version jumps), and a page just opened has nothing to compare.
function liveStep(play, state, previous) {
  const before = previous && previous.game === state.game && previous.play;
  return before && before.number === play.number && state.version > previous.version
    && state.version - previous.version <= 2 ? before : null;
}

// A won token drops into its tray, a new code turns up on the Encryptor's dials, the
// winner arrives; one sound cue for the change (static/js/sound.js plays it, if the
// player wants sound), the weightiest first.
function liveChange(play, before, root) {
  const mark = (sel, cls) => { const el = root.querySelector(sel); if (el) el.classList.add(cls); };
  let cue = null;
  for (const team of ["white", "black"]) {
    for (const [kind, tray] of [["interceptions", "int"], ["miscommunications", "mis"]]) {
      for (let i = before.teams[team][kind]; i < Math.min(2, play.teams[team][kind]); i++) {
        mark(`.dc-score[data-team="${team}"] .dc-tokens-${tray} .dc-chip:nth-child(${i + 1})`, "dc-chip-new");
        cue = "token";
      }
    }
  }
  if (play.encryptor && (!before.encryptor || before.round !== play.round)) mark(".dc-code", "dc-code-live");
  const key = (p) => (p.current && p.current.clues ? `${p.round}:${p.current.team}` : null);
  const mine = (p) => p.phase !== "over" && p.seat.tasks.length > 0;
  const team = play.seat.team;
  if (play.phase === "over" && before.phase !== "over") {
    mark(".dc-end", "dc-end-live");
    if (team && play.outcome && !play.seat.is_spectator) cue = play.outcome.winners.includes(team) ? "win" : "lose";
  } else if (!cue && key(play) && key(play) !== key(before)) cue = "clue";
  else if (!cue && mine(play) && (!mine(before) || before.phase !== play.phase || before.round !== play.round)) cue = "turn";
  if (cue) document.dispatchEvent(new CustomEvent("wordrooms:sound", { detail: { name: cue } }));
}

const pick = (object, keys) => Object.fromEntries(keys.map((key) => [key, object[key]]));
const guessShown = (guess) => guess && { task: guess.task, locked: guess.locked, can_edit: guess.can_edit };

function renderLobby(container, state) {
  const seated = state.players.filter((p) => p.role === "player" && (p.team === "white" || p.team === "black"))
    .map((p) => ({ id: p.id, team: p.team }));
  const you = state.you && { id: state.you.id, team: state.you.team, role: state.you.role };
  part(container, {
    players: seated, you, teams: state.seating.teams, board: boardOf(state), deal: state.deal,
    rules: { seconds: timerSeconds(state), range: state.timers.timer_seconds, editable: canPlay(state.you) && !state.you.device },
  }, lobby);
}

export function render(container, state, ctx) {
  const play = state.play;
  cur.state = state;
  cur.play = play;
  cur.send = ctx.send;
  if (!play) {
    countdown("decrypto", null, {});
    lastHistory = null;
    renderLobby(container, state);
    return;
  }
  forget(container);
  resetLocal(play);
  const look = lookOf(play, state);
  cur.look = look;
  const el = slots(container, "dc", LAYOUT);
  el.root.dataset.phase = play.phase;
  el.root.dataset.role = play.seat.role;
  const over = play.phase === "over";
  const seat = play.seat;
  const team = seat.team;
  const keywords = { white: play.teams.white.keywords, black: play.teams.black.keywords };
  const current = play.current;
  const encryptor = play.encryptor;
  part(el.head, { look, ...pick(play, ["number", "round", "last_round", "phase", "seat"]),
    teams: { white: pick(play.teams.white, ["interceptions", "miscommunications"]), black: pick(play.teams.black, ["interceptions", "miscommunications"]) } }, head);
  // Over, the end panel says who won, large: no status line repeating it above.
  part(el.status, over ? null : { look, ...pick(play, ["phase", "round", "seat", "outcome", "to_act"]),
    encryptor: encryptor && { submitted: encryptor.submitted }, current: current && { team: current.team, guess: guessShown(current.guess) } },
  (data) => (data ? status(data) : null));
  const latest = play.history.length ? play.history[play.history.length - 1] : null;
  const grown = lastHistory !== null && play.history.length > lastHistory;
  // The latest round stays open while it is news: for whoever has nothing to do now, and
  // during the round it was revealed in (the second code's guessers see the first's result).
  const busy = play.seat.tasks.length > 0 && !(play.phase === "guess" && latest && latest.round === play.round);
  part(el.reveal, { look, number: play.number, history: play.history, busy }, () => reveals(play.history, grown ? latest : null, busy));
  const newForm = part(el.encrypt, encryptor && { look, number: play.number, stamp: play.stamp, keywords: keywords[team] || [],
    panel: { code: encryptor.code, submitted: encryptor.submitted, clues: encryptor.submitted ? encryptor.clues : null } },
  (data) => (data ? encryptPanel(data) : null));
  patchClues(play);
  part(el.guess, current && { look, number: play.number, stamp: play.stamp, interceptor: Boolean(seat.is_interceptor),
    keywords: current.guess && current.guess.task === "decipher" ? keywords[team] || [] : [],
    current: { ...pick(current, ["team", "encryptor", "clues", "locked"]),
      guess: current.guess && { ...guessShown(current.guess), suggestions: current.guess.suggestions || [] } } },
  (data) => (data ? guessPanel(data) : null));
  patchGuess(play);
  tiebreakPart(el.tiebreak, { look, ...pick(play, ["phase", "seat", "stamp", "tiebreak", "sheets"]), keywords },
    () => { if (cur.state === state) render(container, state, ctx); });
  part(el.end, { look, over, board: boardOf(state), seated: canPlay(state.you), outcome: play.outcome, keywords }, endSlot);
  part(el.keywords, { interceptor: Boolean(seat.is_interceptor), over }, keywordsSlot);
  const apart = taskTeam(play);
  const sheetData = { look, ...pick(play, ["number", "phase", "seat", "sheets"]), keywords, apart };
  part(el.tasksheet, sheetData, taskSheetSlot);
  part(el.sheets, sheetData, sheetsSlot);
  if (tableView()) fitSheets(el.sheets);
  patchNotes(play);
  part(el.order, { look, shown: Boolean(team && !over && !seat.is_interceptor),
    order: team ? play.teams[team].players : [], next: team ? play.teams[team].next_encryptor : null }, orderSlot);
  part(el.abandon, { shown: !over && canPlay(state.you) && !state.you.device }, abandonSlot);
  announce(play, ctx);
  alertTurn(play);
  const before = liveStep(play, state, ctx.previous);
  if (before) liveChange(play, before, el.root);
  lastHistory = play.history.length;
  // Nothing to do now (the clue phase, for most): the papers take the whole width.
  el.root.classList.toggle("dc-main-empty", !el.root.querySelector(".dc-main > .dc-slot:not(:empty)"));
  countdown("decrypto", play.deadline, { every: 500,
    format: (text) => interpolate(_("Time left %(t)s"), { t: text }),
    onUp: () => turnAlert(_("Time's up!"), { mine: Boolean(cur.play.seat.is_encryptor) }) });
  // Focus the first clue once, when the form appears (not on every push: on a phone that
  // would bring the keyboard back each time the player closed it).
  const first = document.getElementById("dc-clue-1");
  if (newForm && first && document.activeElement === document.body) first.focus();
}

export function title(state) {
  const play = state.play;
  if (!play) return null;
  const mine = play.phase !== "over" && play.seat.tasks.length > 0;
  return `${mine ? "● " + _("Your turn") + " · " : ""}${_("Decrypto")} · ${state.slug}`;
}
