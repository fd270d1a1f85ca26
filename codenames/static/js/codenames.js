// Codenames: renders the state the server sent for this browser. The server decides
// what this seat may know; nothing here hides anything it was given.
//
// The screen is a column of parts (view.js): each is redrawn only when the slice of the
// state it shows changed, keeping the focus, the caret and what is being typed.
import { _, h, interpolate, ngettext, turnAlert, TEAM_SYMBOLS } from "./dom.js";
import { part, forget, slots } from "./view.js";
import { countdown } from "./ui.js";
import { IDENTITY, SYMBOL, TEAM, cur, myTurnToAct, numberText, roleWord, seatOf, statusText } from "./codenames/common.js";
import { animate, board, focus, watchFit } from "./codenames/board.js";
import { actions, clueLog } from "./codenames/turn.js";
import { boardOf, deviceLink, houseRules, lobbyPanel, rulesText, scoreboard } from "./codenames/lobby.js";

const LAYOUT = { main: ["head", "status", "news", "end", "clue", "actions", "board", "legend", "log", "device", "rules", "abandon"] };
let last = { clueKey: null, covered: null, myTurn: false, gameNumber: null, turnKey: null, turn: null, revealed: null,
  team: null, phase: null, news: null };

// The room bar's seat label: "◆ Red · Spymaster"; on the key phone, whose key it is.
export function seatLabel(state) {
  const you = state.you;
  if (!you || !TEAM[you.team] || !roleWord(you.role)) return null;
  const team = `${TEAM_SYMBOLS[you.team]} ${TEAM[you.team]}`;
  if (you.device) {
    return { team: you.team, text: interpolate(_("%(name)s's key — %(team)s spymaster"), { name: you.name, team }) };
  }
  return { team: you.team, text: `${team} · ${roleWord(you.role)}` };
}

// Who acts now, when every such seat is a bot (players[].bot): its name, else null.
function botActing(play, players) {
  let actors = [];
  if (play.phase === "clue") actors = players.filter((p) => p.team === play.team && p.role === "spymaster");
  else if (play.phase === "guess") actors = players.filter((p) => p.role === "operative" && (play.mode === "three" || p.team === play.team));
  return actors.length && actors.every((p) => p.bot) ? actors[0].name : null;
}

// Each team's spymaster, as the seats stand now ("Rotate spymasters" changes them).
function spymasters(players) {
  return Object.fromEntries(players.filter((p) => p.role === "spymaster" && TEAM[p.team]).map((p) => [p.team, p]));
}

// CN-19: after "Rotate spymasters" everyone is told who gives the clues next, and the new
// spymasters that it is them. A rotation is a spymaster replaced by a teammate in one push
// while the old one stays in the team (a person leaving a seat takes two pushes).
function announceRotation(previous, state, ctx) {
  if (!previous || !previous.players || previous.game !== state.game) return;
  const before = spymasters(previous.players);
  const now = spymasters(state.players);
  const changed = Object.keys(now).filter((team) => before[team] && before[team].id !== now[team].id
    && state.players.some((p) => p.id === before[team].id && p.team === team && p.role === "operative"));
  if (!changed.length) return;
  const youId = state.you ? state.you.id : null;
  const text = interpolate(_("New spymasters: %(list)s"), { list: changed.map((team) => `${SYMBOL[team]} ${TEAM[team]}: ${now[team].name}`).join(" · ") });
  const mine = changed.find((team) => now[team].id === youId);
  if (mine) {
    const yours = interpolate(_("You are now %(team)s's spymaster"), { team: TEAM[mine] });
    turnAlert(yours, { mine: true, kind: mine });
    ctx.toast(`${yours}. ${text}`);
    ctx.announce(yours);
  } else {
    turnAlert(text, {});
    ctx.toast(text);
    ctx.announce(text);
  }
}

// For the rules dialog: this room's house rules, above the game's rules.
// Whether this player has a move to make now (room.js pings more often then).
export function canAct(state) {
  return myTurnToAct(state.play, seatOf(state));
}

export function houseRulesSummary(state) {
  const rules = (state.settings && state.settings.codenames) || {};
  return [h("h3", { text: _("This room's house rules") }), h("p", { text: rulesText(rules) }),
    rules.notes ? h("p", { class: "house-notes", text: rules.notes }) : null].filter(Boolean);
}

// The rules dialog opens at the variant being played (or about to be).
export function howtoSection(state) {
  const mode = state.play ? state.play.mode : state.deal.mode;
  return { coop: "coop", three: "three" }[mode] || "standard";
}

const editable = (you) => Boolean(you && you.role !== "spectator" && !you.device);
const rulesOf = (state) => ({ rules: (state.settings && state.settings.codenames) || {}, timers: state.timers, editable: editable(state.you) });
const pick = (object, keys) => Object.fromEntries(keys.map((key) => [key, object[key]]));

function renderLobby(container, state) {
  const players = state.players.filter((p) => p.role !== "spectator").map((p) => ({ id: p.id, team: p.team, role: p.role }));
  const you = state.you && { team: state.you.team, role: state.you.role };
  part(container, { players, you, teams: state.seating.teams, deal: state.deal, board: boardOf(state), rules: rulesOf(state) },
    (data) => [h("h2", { text: _("Codenames") }), scoreboard(data.board), lobbyPanel(data)]);
}

// ---- the view ----------------------------------------------------------------------------
export function render(container, state, ctx) {
  const play = state.play;
  const seat = seatOf(state);
  cur.play = play;
  cur.send = ctx.send;
  cur.youId = state.you ? state.you.id : null;
  const names = Object.fromEntries(state.players.map((p) => [p.id, p.name]));
  container.classList.toggle("spymaster-view", Boolean(play && play.sees_key && play.phase !== "over"));
  container.dataset.role = seat.role;
  if (!play) {
    countdown("codenames", null, {});
    last.gameNumber = null;
    renderLobby(container, state);
    return;
  }
  forget(container);
  announceRotation(ctx.previous, state, ctx);
  // Motion and sound mark live changes only: a page load or a resync of the same game
  // (ctx.previous of the same game number) draws the board as it stands, still.
  const before = ctx.previous && ctx.previous.game === state.game ? ctx.previous.play : undefined;
  const dealt = before !== undefined && (!before || before.number !== play.number);
  const endedNow = Boolean(before && before.number === play.number && before.phase !== "over" && play.phase === "over");
  const guessing = last.team;
  const fresh = announceChanges(play, ctx);
  cueSounds(play, seat, { fresh, dealt, endedNow, guessing, live: before !== undefined });
  alertTurn(play, seat);
  const over = play.phase === "over";
  const mine = myTurnToAct(play, seat);
  if (focus.pos === null || !play.cards[focus.pos]) {
    const open = play.cards.find((c) => !c.covered);
    focus.pos = open ? open.position : 0;
  }
  const el = slots(container, "cn", LAYOUT);
  part(el.head, { number: play.number, remaining: play.remaining }, ({ number, remaining }) =>
    h("div", { class: "game-head" }, h("h2", { text: interpolate(_("Codenames · game %(n)s"), { n: number }) }),
      h("p", { class: "remaining" }, ["red", "blue"].map((team) => {
        // The count stands out in bold wherever the language puts it ("%(n)s left").
        const [before, after = ""] = ngettext("%(n)s left", "%(n)s left", remaining[team]).split("%(n)s");
        return h("span", { class: `left left-${team}` }, `${SYMBOL[team]} ${TEAM[team]}: ${before}`,
          h("strong", { text: String(remaining[team]) }), after);
      }))));
  const winner = over ? (play.mode === "coop" ? (play.winner ? play.rules.coop_team : null) : play.winner) : null;
  const bot = over || mine ? null : botActing(play, state.players);
  const statusDrawn = part(el.status, { turn: over ? winner || "none" : play.team, over, mine, badge: over ? (winner ? "★" : SYMBOL.assassin) : SYMBOL[play.team],
    text: bot ? interpolate(_("%(name)s is thinking…"), { name: bot }) : statusText(play, seat), bot: Boolean(bot) }, (s) =>
    h("div", { class: `status turn-${s.turn}${s.over ? " over" : ""}${s.mine ? " mine" : ""}${s.bot ? " thinking" : ""}`, role: "status" },
      h("span", { class: "turn-badge", "aria-hidden": "true", text: s.badge }),
      h("span", { class: "status-text", text: s.text }),
      h("span", { class: "countdown", "aria-live": "off", hidden: true, dataset: { countdown: "codenames" } })));
  // A game won just now is cheered (on the freshly drawn status only: see animate()).
  if (statusDrawn && endedNow && winner) el.status.firstChild.classList.add("celebrate");
  part(el.news, last.news, (n) => (n ? h("p", { class: `guess-news g-${n.right ? "right" : "wrong"} g-${n.identity}`, id: "guess-news" },
    h("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[n.identity] || "" }), n.text) : null));
  const seatedNow = editable(state.you);
  const next = Object.entries(spymasters(state.players)).map(([team, p]) => `${SYMBOL[team]} ${TEAM[team]}: ${p.name}`);
  part(el.end, over && { board: boardOf(state), seatedNow, coop: play.mode === "coop", next }, (e) => (e ? h("div", { class: "end" },
    scoreboard(e.board),
    e.next.length ? h("p", { class: "next-spymasters", id: "next-spymasters", text: interpolate(_("Spymasters for the next game: %(list)s"), { list: e.next.join(" · ") }) }) : null,
    e.seatedNow ? h("div", { class: "row" },
      h("button", { type: "button", class: "primary", id: "next-game", onclick: () => cur.send({ action: "start_game" }) }, _("Play again")),
      e.coop ? null : h("button", { type: "button", id: "rotate", onclick: () => cur.send({ action: "rotate_spymasters" }) }, _("Rotate spymasters")))
      : null) : null));
  part(el.clue, !over && play.clue, (clue) => (clue ? h("p", { class: `current-clue clue-${clue.team}` }, h("span", { class: "label", text: _("Clue") }),
    h("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[clue.team] }),
    h("strong", { class: "clue-word", text: clue.word }), h("span", { class: "clue-number", text: numberText(clue.number) })) : null));
  const turn = pick(play, ["phase", "mode", "team", "turn", "guesses_made", "penalty_owed", "proposals", "rules"]);
  const proposal = cur.youId && play.proposals ? play.proposals[cur.youId] : undefined;
  const actionFocused = el.actions.contains(document.activeElement);
  part(el.actions, { play: turn, seat, mine: proposal === undefined ? null : proposal,
    mineWord: proposal === undefined ? null : play.cards[proposal].word, covered: play.cards.map((c) => c.covered) },
  (a) => h("div", { class: "actions" }, actions(a)));
  const redrawn = part(el.board, { play: turn, cards: play.cards, seat, names, lastRevealed: last.revealed,
    focusPos: focus.pos, youId: cur.youId, language: state.language || null }, board);
  if (redrawn) {
    const drawn = el.board.querySelector(".board");
    watchFit(drawn);
    animate(drawn, { dealt, fresh });
  }
  // The control just used went away (End turn, Confirm): focus stays in the game, on the
  // next action or else the board's card, never dropped to the page.
  if (actionFocused && !el.actions.contains(document.activeElement)) {
    const next = el.actions.querySelector("button:not([disabled]), summary, input") || el.board.querySelector('.card[tabindex="0"]');
    if (next) next.focus({ preventScroll: true });
  }
  part(el.legend, over, (shown) => (shown ? h("p", { class: "key-legend" },
    h("span", { text: _("The whole key is shown.") }),
    h("span", { text: _("Filled: found during the game") }),
    h("span", { text: _("Dashed: never found") })) : null));
  part(el.log, { log: play.log, cards: play.cards.map((c) => ({ word: c.word, identity: c.covered ? c.identity : null })), explanations: play.explanations },
    (log) => h("section", { class: "log" }, h("h3", { text: _("Clues") }), clueLog(log)));
  part(el.device, { you: state.you && pick(state.you, ["role", "device", "device_link"]), slug: state.slug }, deviceLink);
  part(el.rules, rulesOf(state), houseRules);
  part(el.abandon, !over && seatedNow, (shown) => (shown ? h("details", { class: "abandon" },
    h("summary", { text: _("New game…") }),
    h("button", { type: "button", class: "danger", onclick: () => {
      if (confirm(_("Abandon this game and deal a new one?"))) cur.send({ action: "start_game", confirm: true });
    } }, _("Abandon and deal again"))) : null));
  // At zero the server ends the turn within a moment: the clock says so rather than sit at 0:00.
  countdown("codenames", over ? null : play.deadline, { format: (text) => `⏳ ${text}`, onUp: () => turnAlert(_("Time's up!")) });
  const focusWord = document.getElementById("clue-word");
  if (focusWord && document.activeElement === document.body && !matchMedia("(pointer: coarse)").matches) focusWord.focus();
}

// The sounds of what just happened (sound.js plays them, if this device has sound on).
const sound = (name) => document.dispatchEvent(new CustomEvent("wordrooms:sound", { detail: { name } }));
function cueSounds(play, seat, { fresh, dealt, endedNow, guessing, live }) {
  const newClue = play.clue && last.clueCued !== last.clueKey;
  last.clueCued = last.clueKey;
  if (!live) return;
  if (dealt) sound("deal");
  // A card is "own" for the guessing team's side: a spectator hears the turn's point of view.
  const side = ["red", "blue"].includes(seat.team) ? seat.team : guessing;
  let revealed = false;
  for (const position of fresh) {
    const identity = play.cards[position].identity;
    revealed = true;
    sound(identity === "assassin" ? "reveal-assassin" : identity === "bystander" ? "reveal-bystander"
      : identity === side ? "reveal-own" : "reveal-opponent");
  }
  if (newClue) sound("clue");
  if (endedNow) {
    const won = play.mode === "coop" ? Boolean(play.winner) : !["red", "blue"].includes(seat.team) || seat.team === play.winner;
    // After the reveal's own cue, not over it.
    setTimeout(() => sound(won ? "win" : "lose"), revealed ? 400 : 0);
  }
}

// What changed since the last push: said to screen readers, and the newly covered cards
// (returned) get the reveal animation and the "last revealed" ring.
function announceChanges(play, ctx) {
  if (last.gameNumber !== play.number) {
    last = { ...last, clueKey: null, covered: play.cards.map((c) => c.covered), gameNumber: play.number, revealed: null,
      team: play.team, phase: play.phase, news: null };
    focus.pos = null;
  }
  const clueKey = play.clue ? `${play.log.length}:${play.clue.word}` : null;
  if (clueKey && clueKey !== last.clueKey) {
    last.news = null;
    ctx.announce(interpolate(_("%(team)s clue: %(word)s, %(number)s"), { team: TEAM[play.clue.team], word: play.clue.word, number: numberText(play.clue.number) }));
  }
  last.clueKey = clueKey;
  const fresh = new Set();
  play.cards.forEach((c, i) => {
    if (c.covered && last.covered && !last.covered[i]) {
      fresh.add(c.position);
      last.revealed = c.position;
      last.news = guessNews(c, play);
      ctx.announce(last.news.text);
    }
  });
  // A turn ended with no card covered (End turn, the timer): the last reveal is old news.
  if (!fresh.size && last.newsTurn !== undefined && last.newsTurn !== play.turn) last.news = null;
  last.newsTurn = play.turn;
  last.covered = play.cards.map((c) => c.covered);
  last.team = play.team;
  last.phase = play.phase;
  return fresh;
}

// "SAGE — Bystander, turn over": what a covered card was and what it means for the turn.
// A card covered outside guessing (CN-21's penalty, CN-31's opponent) says only what it was.
function guessNews(c, play) {
  const guess = last.phase === "guess";
  let what = null;
  if (play.phase === "over") what = _("game over");
  else if (guess) what = play.phase === "guess" && play.team === last.team ? _("keep guessing") : _("turn over");
  const text = what ? interpolate(_("%(word)s — %(identity)s, %(what)s"), { word: c.word, identity: IDENTITY[c.identity], what })
    : `${c.word} — ${IDENTITY[c.identity]}`;
  return { text, identity: c.identity, right: guess ? c.identity === last.team : c.identity !== "assassin" };
}

// A banner when play passes to someone else; sound and vibration when it is this player's.
function alertTurn(play, seat) {
  const key = `${play.number}:${play.turn}:${play.phase}`;
  const previous = last.turnKey;
  const previousTurn = last.turn;
  last.turnKey = key;
  last.turn = play.turn;
  const mine = myTurnToAct(play, seat);
  const wasMine = last.myTurn;
  last.myTurn = mine;
  if (previous === null || previous === key) return;
  if (play.phase === "over") {
    turnAlert(statusText(play, seat), { kind: play.mode === "coop" ? "" : play.winner });
  } else if (mine && !wasMine) {
    const text = play.phase === "clue" ? _("Your turn: give a clue") : play.phase === "opponent" ? _("Your turn: cover an opponent's agent") : _("Your turn: guess");
    turnAlert(text, { mine: true });
  } else if (!mine && play.phase !== "opponent" && previousTurn !== play.turn) {
    turnAlert(interpolate(_("%(team)s's turn"), { team: `${SYMBOL[play.team]} ${TEAM[play.team]}` }), { kind: play.team });
  }
}

export function title(state) {
  const play = state.play;
  if (!play) return null;
  const mine = myTurnToAct(play, seatOf(state));
  return `${mine ? "● " + _("Your turn") + " · " : ""}${_("Codenames")} · ${state.slug}`;
}
