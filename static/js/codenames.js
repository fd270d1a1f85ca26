// Codenames: renders the state the server sent for this browser. The server decides
// what this seat may know; nothing here hides anything it was given.
import { _, h, interpolate, serverNow, turnAlert, clockText, teamPicker } from "./dom.js";

const TEAM = { red: _("Red"), blue: _("Blue") };
const SYMBOL = { red: "◆", blue: "●", bystander: "—", assassin: "✖" };
const IDENTITY = { red: _("Red agent"), blue: _("Blue agent"), bystander: _("Bystander"), assassin: _("Assassin") };
const HYPHENS = /[-\u2010-\u2014\u2212]/;
const MAX_NUMBER = 9;
// CN-33: the rulebook's ratings of a co-operative win, by the score.
const RATINGS = {
  8: _("That's… hard to believe."), 7: _("Mission impossible."), 6: _("Wow!"),
  5: _("You'll get a call from MI6."), 4: _("Top-secret clearance."), 3: _("Your watches are synchronised."),
  2: _("OK. But you can do better."), 1: _("Well, a win is a win, right?"),
};

let last = { clueKey: null, covered: null, myTurn: false, gameNumber: null, turnKey: null, turn: null, revealed: null };
// The card that holds the board's one Tab stop (arrow keys move between cards).
let focusPos = null;
let countdownTimer = null;
let timesUpFor = null;
let draft = { word: "", number: "1" };
let state_you_id = null;

const fold = (text) => text.normalize("NFC").toLowerCase().normalize("NFC");

// CN-10, answered before sending; the server checks again and has the last word.
export function clueProblem(word, play) {
  const clue = word.normalize("NFC").trim().split(/\s+/).join(" ");
  if (!clue) return _("Type a clue.");
  const multi = play.rules.multi_word_clues;
  if (!multi && clue.includes(" ")) return _("The clue must be a single word.");
  if (!multi && HYPHENS.test(clue)) return _("The clue must be a single word, without hyphens.");
  const parts = [fold(clue), ...(multi ? clue.split(/[\s\-\u2010-\u2014\u2212]+/).filter(Boolean).map(fold) : [])];
  for (const card of play.cards) {
    if (card.covered) continue;
    const word = fold(card.word);
    if (parts.includes(word)) return interpolate(_("%(word)s is on the board."), { word: card.word });
    for (const part of parts) {
      if (Math.min(part.length, word.length) >= 3 && (part.includes(word) || word.includes(part))) {
        return interpolate(_("The clue and %(word)s contain one another."), { word: card.word });
      }
    }
  }
  return null;
}

function seatOf(state) {
  const you = state.you;
  return you ? { team: you.team, role: you.role } : { team: "", role: "spectator" };
}

function canGuess(play, seat) {
  return play.phase === "guess" && seat.role === "operative" && (play.mode === "three" || seat.team === play.team);
}

function guessesText(play) {
  if (play.guesses_left === null || play.guesses_left === undefined) {
    return play.guesses_made ? _("Keep guessing, or stop") : _("Guess as many as you can");
  }
  const n = play.guesses_left;
  const text = n === 1 ? _("1 more guess") : interpolate(_("%(n)s more guesses"), { n });
  return play.guesses_made ? interpolate(_("%(text)s, or stop"), { text }) : text;
}

function statusText(play, seat, names) {
  if (play.phase === "over") {
    if (play.mode === "coop") {
      return play.winner ? interpolate(_("You won! Score %(score)s: %(rating)s"), { score: play.score, rating: RATINGS[play.score] || play.rating })
        : _("The mission failed.");
    }
    const why = play.reason === "assassin" ? _("the other team touched the assassin") : _("all their agents were found");
    return interpolate(_("%(team)s wins: %(why)s."), { team: TEAM[play.winner], why });
  }
  const team = TEAM[play.team];
  if (play.phase === "opponent") {
    return coopSpymaster(play, seat) ? _("The opponent's turn: you choose which of its agents it covers.")
      : _("The opponent's turn: your spymaster chooses which of its agents it covers.");
  }
  if (play.phase === "clue") {
    const mine = seat.role === "spymaster" && seat.team === play.team;
    if (play.penalty_owed === seat.team && seat.role === "spymaster" && mine) {
      return _("Your turn to give a clue. You may first cover one of your agents (penalty).");
    }
    return mine ? _("Your turn: give a clue.") : interpolate(_("%(team)s spymaster is thinking of a clue."), { team });
  }
  let who;
  if (canGuess(play, seat)) {
    who = play.mode === "three" ? interpolate(_("You are guessing for %(team)s"), { team }) : _("Your team is guessing");
  } else {
    who = interpolate(_("%(team)s operatives are guessing"), { team });
  }
  return `${who}: ${guessesText(play)}.`;
}

function numberText(n) {
  return n === null ? "∞" : String(n);
}

function coopSpymaster(play, seat) {
  return play.mode === "coop" && seat.role === "spymaster" && seat.team === play.rules.coop_team;
}

function myTurnToAct(play, seat) {
  if (!play || play.phase === "over") return false;
  if (play.phase === "clue") return seat.role === "spymaster" && seat.team === play.team;
  if (play.phase === "opponent") return coopSpymaster(play, seat);
  return canGuess(play, seat);
}

// ---- pieces ------------------------------------------------------------------------------
function card(cardState, play, seat, names, send, fresh) {
  const identity = cardState.identity;
  const position = cardState.position;
  const classes = ["card"];
  if (identity) classes.push(`id-${identity}`);
  if (cardState.covered) classes.push("covered");
  else if (identity) classes.push("keyed");
  if (fresh.has(position)) classes.push("reveal");
  if (last.revealed === position) classes.push("last");
  const proposers = Object.entries(play.proposals || {})
    .filter(([, pos]) => pos === position).map(([id]) => names[id] || "?");
  if (proposers.length) classes.push("proposed");
  const mine = state_you_id && play.proposals && play.proposals[state_you_id] === position;
  if (mine) classes.push("mine");

  let onclick = null;
  let hint = null;
  if (!cardState.covered && play.phase !== "over") {
    if (canGuess(play, seat)) {
      onclick = () => send(mine ? { action: "confirm", turn: play.turn, position }
        : { action: "propose", turn: play.turn, position });
      hint = mine ? _("tap again to confirm") : null;
    } else if (seat.role === "spymaster" && play.phase === "clue" && play.penalty_owed === seat.team
      && seat.team === play.team && identity === seat.team) {
      onclick = () => {
        if (confirm(interpolate(_("Cover %(word)s as your penalty agent?"), { word: cardState.word }))) {
          send({ action: "penalty_cover", turn: play.turn, position });
        }
      };
    } else if (play.phase === "opponent" && coopSpymaster(play, seat)
      && identity && identity !== seat.team && identity !== "bystander" && identity !== "assassin") {
      onclick = () => send({ action: "opponent_cover", turn: play.turn, position });
    }
  }
  const label = identity ? IDENTITY[identity] : null;
  const found = play.phase === "over" && cardState.covered ? _("found during the game") : null;
  // Cards stay focusable when they cannot be played (aria-disabled, not disabled), so a
  // keyboard player's focus stays on the card they just confirmed.
  return h("button", {
    class: classes.join(" "),
    type: "button",
    id: `card-${position}`,
    tabindex: position === focusPos ? 0 : -1,
    dataset: { position },
    "aria-label": [cardState.word, label, cardState.covered ? _("covered") : null, found, mine ? _("your proposal: press again to confirm") : null,
      proposers.length ? interpolate(_("proposed by %(names)s"), { names: proposers.join(", ") }) : null]
      .filter(Boolean).join(", "),
    "aria-disabled": onclick ? null : "true",
    onclick,
  },
  identity ? h("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[identity] }) : null,
  h("span", { class: `word${/\s/.test(cardState.word.trim()) ? " multi" : ""}`, text: cardState.word }),
  identity && !cardState.covered ? h("span", { class: "tag", "aria-hidden": "true" }, h("span", { class: "label", text: label })) : null,
  proposers.length ? h("span", { class: "proposers", "aria-hidden": "true", text: `☞ ${proposers.join(", ")}` }) : null,
  hint ? h("span", { class: "hint", "aria-hidden": "true", text: hint }) : null);
}

// Arrow keys move between the cards, so the board is one Tab stop, not 25.
function boardKeys(event) {
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -5, ArrowDown: 5 };
  const current = event.target.closest(".card");
  if (!current) return;
  let next = null;
  const pos = Number(current.dataset.position);
  if (event.key in moves) next = pos + moves[event.key];
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = 24;
  if (next === null) return;
  const target = document.getElementById(`card-${next}`);
  if (!target) return;
  event.preventDefault();
  current.tabIndex = -1;
  target.tabIndex = 0;
  target.focus();
}

// Each word on one line at the largest size that fits its card: shrink to at least 11 px,
// then narrow the letters (a word is never broken in the middle).
const MIN_CARD_PX = 11;
let measure = null;
function fitWords(board) {
  const words = board.querySelectorAll(".card .word");
  if (!words.length) return;
  const cardEl = words[0].parentElement;
  const style = getComputedStyle(cardEl);
  const room = cardEl.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 4;
  const base = parseFloat(style.fontSize);
  if (!(room > 0) || !base) return;
  measure = measure || document.createElement("canvas").getContext("2d");
  measure.font = `${style.fontWeight} ${base}px ${style.fontFamily}`;
  const shape = style.textTransform === "uppercase" ? (w) => w.toUpperCase()
    : style.textTransform === "capitalize" ? (w) => w.charAt(0).toUpperCase() + w.slice(1) : (w) => w;
  for (const word of words) {
    const widest = Math.max(...word.textContent.trim().split(/\s+/).map((part) => measure.measureText(shape(part)).width));
    const size = widest > room ? Math.max(MIN_CARD_PX, (base * room) / widest) : base;
    word.style.fontSize = size < base ? `${size.toFixed(1)}px` : "";
    const width = (widest * size) / base;
    word.style.transform = width > room ? `scaleX(${(room / width).toFixed(3)})` : "";
  }
}

// A ResizeObserver reports a board when it starts watching it (before the first paint)
// and whenever it changes size: one fit per new board, and one per rotation.
let fitObserver = null;
function watchFit(board) {
  if (!window.ResizeObserver) {
    fitWords(board);
    return;
  }
  if (!fitObserver) {
    fitObserver = new ResizeObserver(() => {
      const current = document.querySelector("#play .board");
      if (current) fitWords(current);
    });
  }
  fitObserver.disconnect();
  fitObserver.observe(board);
}

function clueForm(play, send) {
  const word = h("input", { id: "clue-word", maxlength: 40, autocomplete: "off", autocapitalize: "none", enterkeyhint: "send",
    "aria-label": _("Clue word"), value: draft.word, placeholder: play.rules.multi_word_clues ? _("your clue") : _("one word") });
  const number = h("select", { id: "clue-number", "aria-label": _("Number") },
    [...Array(MAX_NUMBER + 1).keys()].map((n) => h("option", { value: String(n), text: String(n) })),
    h("option", { value: "inf", text: "∞" }));
  number.value = draft.number;
  const problem = h("p", { class: "clue-problem error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", id: "clue-send" }, _("Give clue"));
  const check = () => {
    draft.word = word.value;
    draft.number = number.value;
    const message = word.value.trim() ? clueProblem(word.value, play) : null;
    problem.textContent = message || "";
    submit.disabled = !word.value.trim() || Boolean(message);
  };
  word.addEventListener("input", check);
  number.addEventListener("change", check);
  check();
  return h("form", { class: "clue-form", onsubmit: (event) => {
    event.preventDefault();
    check();
    if (submit.disabled) return;
    const value = number.value === "inf" ? null : Number(number.value);
    send({ action: "give_clue", turn: play.turn, word: word.value, number: value });
    draft = { word: "", number: "1" };
  } }, word, h("div", { class: "clue-line" }, number, submit), problem);
}

function actions(play, seat, send) {
  const bar = [];
  if (play.phase === "over") return bar;
  if (seat.role === "spymaster" && seat.team === play.team && play.phase === "clue") {
    bar.push(clueForm(play, send));
  }
  if (canGuess(play, seat)) {
    const mine = state_you_id && play.proposals ? play.proposals[state_you_id] : undefined;
    if (mine !== undefined) {
      bar.push(h("button", { type: "button", class: "primary", id: "confirm-guess",
        onclick: () => send({ action: "confirm", turn: play.turn, position: mine }) },
      interpolate(_("Confirm %(word)s"), { word: play.cards[mine].word })));
    }
    bar.push(h("button", { type: "button", id: "end-turn", disabled: play.guesses_made ? null : true,
      title: play.guesses_made ? null : _("Make at least one guess first"),
      onclick: () => send({ action: "end_turn", turn: play.turn }) }, _("End turn")));
  }
  if (seat.role === "spymaster" && play.phase === "guess" && seat.team !== play.team && play.mode !== "coop") {
    bar.push(h("button", { type: "button", class: "danger", id: "reject-clue", onclick: () => {
      if (confirm(_("Reject this clue as invalid? Their turn ends at once."))) send({ action: "reject_clue", turn: play.turn });
    } }, _("Reject clue")));
  }
  if (play.phase === "opponent" && coopSpymaster(play, seat)) {
    bar.push(h("p", { class: "instruction", text: _("The opponent's turn: tap one of the opponent's agents to cover it.") }));
  }
  if (play.phase === "clue" && play.penalty_owed === seat.team && seat.role === "spymaster" && seat.team === play.team) {
    bar.push(h("p", { class: "instruction", text: _("Penalty: you may tap one of your agents to cover it before your clue.") }));
  }
  return bar;
}

function clueLog(play) {
  if (!play.log.length) return h("p", { class: "muted", text: _("No clues yet.") });
  return h("ol", { class: "clue-log" }, play.log.map((entry, i) => h("li", { class: `clue-${entry.team}` },
    h("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[entry.team] }),
    h("span", { class: "visually-hidden", text: TEAM[entry.team] }),
    h("strong", { text: entry.word }), " ", h("span", { class: "num", text: numberText(entry.number) }),
    entry.guesses.length ? h("span", { class: "guessed", text: ` → ${entry.guesses.map((p) => play.cards[p].word).join(", ")}` }) : null,
    entry.rejected ? h("span", { class: "rejected", text: ` (${_("rejected")})` }) : null,
    // After the game, what a bot spymaster meant: "SEAT 2 → saddle, bench".
    (play.explanations || {})[i] ? h("span", { class: "explained", text: ` · ${interpolate(_("bot's idea: %(idea)s"), { idea: play.explanations[i] })}` }) : null)));
}

function countdown(play) {
  const el = h("span", { class: "countdown", "aria-live": "off" });
  clearInterval(countdownTimer);
  if (!play.deadline || play.phase === "over") return null;
  const tick = () => {
    const left = Math.max(0, Math.round(play.deadline - serverNow()));
    const text = clockText(left);
    // At zero the server ends the turn within a moment: say so rather than sit at 0:00.
    el.textContent = text ? `⏳ ${text}` : `⌛ ${_("Time's up!")}`;
    el.classList.toggle("urgent", left <= 10);
    el.classList.toggle("up", !text);
    if (!text && timesUpFor !== play.deadline) {
      timesUpFor = play.deadline;
      turnAlert(_("Time's up!"));
    }
  };
  tick();
  countdownTimer = setInterval(tick, 1000);
  return el;
}

function deviceLink(state, send) {
  const you = state.you;
  if (!you || you.role !== "spymaster" || you.device) return null;
  if (!you.device_link) {
    return h("section", { class: "device-link" },
      h("button", { type: "button", id: "make-device-link", onclick: () => send({ action: "device_link" }) },
        _("Open the key on my phone")));
  }
  const url = new URL(you.device_link, location.href).href;
  return h("details", { class: "device-link" },
    h("summary", { text: _("Key on your phone") }),
    h("p", { class: "hint", text: _("Scan with your phone. This link is yours alone: it shows the key.") }),
    h("img", { src: `/r/${state.slug}/device.svg?v=${encodeURIComponent(you.device_link.slice(-8))}`, alt: _("QR code of your key link"), width: 200, height: 200 }),
    h("input", { readonly: true, value: url, "aria-label": _("Your key link"), id: "device-link-url" }),
    h("button", { type: "button", onclick: () => {
      if (confirm(_("Make a new link? The old one stops working."))) send({ action: "device_link", regenerate: true });
    } }, _("New link (revoke the old one)")));
}

function rulesText(rules) {
  return [
    rules.multi_word_clues ? _("Multi-word clues allowed") : _("One-word clues"),
    rules.timer ? interpolate(_("Timer: %(clue)s s for clues, %(guess)s s for guessing"), { clue: rules.clue_seconds, guess: rules.guess_seconds })
      : _("No timer"),
  ].join(" · ");
}

// For the rules dialog: this room's house rules, above the game's rules.
export function houseRulesSummary(state) {
  const rules = (state.settings && state.settings.codenames) || {};
  return [h("h3", { text: _("This room's house rules") }), h("p", { text: rulesText(rules) }),
    rules.notes ? h("p", { class: "house-notes", text: rules.notes }) : null].filter(Boolean);
}

// The rules dialog opens at the variant being played (or about to be).
export function howtoSection(state) {
  const mode = state.play ? state.play.mode : seatedMode(state);
  return { coop: "coop", three: "three" }[mode] || "standard";
}

function houseRules(state, send) {
  const rules = (state.settings && state.settings.codenames) || {};
  const seated = state.you && state.you.role !== "spectator" && !state.you.device;
  const body = [h("p", { class: "rules-summary", text: rulesText(rules) })];
  if (rules.notes) body.push(h("p", { class: "house-notes", text: rules.notes }));
  if (seated) {
    const multi = h("input", { type: "checkbox", id: "hr-multi", checked: rules.multi_word_clues ? true : null });
    const timer = h("input", { type: "checkbox", id: "hr-timer", checked: rules.timer ? true : null });
    const clue = h("input", { type: "number", id: "hr-clue", min: 30, max: 300, step: 10, value: rules.clue_seconds || 120 });
    const guess = h("input", { type: "number", id: "hr-guess", min: 30, max: 300, step: 10, value: rules.guess_seconds || 90 });
    const notes = h("textarea", { id: "hr-notes", maxlength: 500, rows: 2,
      placeholder: _("Your group's calls on acronyms, rhymes, homonyms…") });
    notes.value = rules.notes || "";
    body.push(h("form", { class: "house-form", onsubmit: (event) => {
      event.preventDefault();
      send({ action: "house_rules", multi_word_clues: multi.checked, timer: timer.checked,
        clue_seconds: Number(clue.value), guess_seconds: Number(guess.value), notes: notes.value });
    } },
    h("label", { class: "check" }, multi, " ", _("Allow clues of several words (New York)")),
    h("label", { class: "check" }, timer, " ", _("Sand timer")),
    h("div", { class: "row timers" },
      h("label", {}, _("Clue (s)"), clue), h("label", {}, _("Guessing (s)"), guess)),
    h("label", { for: "hr-notes" }, _("House notes")), notes,
    h("p", { class: "hint", text: _("Changes apply from the next deal.") }),
    h("button", { type: "submit", id: "hr-save" }, _("Save house rules"))));
  }
  return h("details", { class: "house-rules" }, h("summary", { text: _("House rules") }), body);
}

function seatedMode(state) {
  const seated = state.players.filter((p) => p.role !== "spectator");
  const spymasters = seated.filter((p) => p.role === "spymaster");
  const operatives = seated.filter((p) => p.role === "operative");
  const teams = new Set(seated.map((p) => p.team));
  if (spymasters.length === 2 && operatives.length === 1) return "three";
  if (spymasters.length === 1 && operatives.length >= 1 && teams.size === 1) return "coop";
  return "standard";
}

function lobbyPanel(state, send) {
  const seated = state.players.filter((p) => p.role !== "spectator");
  const spymasters = seated.filter((p) => p.role === "spymaster");
  const operatives = seated.filter((p) => p.role === "operative");
  const teams = new Set(seated.map((p) => p.team));
  let hint;
  if (spymasters.length === 2 && operatives.length === 1) hint = _("Three players: two spymasters and one operative who guesses for both teams.");
  else if (spymasters.length === 1 && operatives.length >= 1 && teams.size === 1) hint = _("Co-operative: your team against the clock of a simulated opponent.");
  else if (seated.length < 4) hint = _("Four or more players play in two teams. With two or three, seat one team (co-operative) or two spymasters and one operative.");
  else hint = _("Each team needs a spymaster and at least one operative.");
  const label = { three: _("Deal a three-player game"), coop: _("Deal a co-operative game"), standard: _("Deal a new game") }[seatedMode(state)];
  // The first player of a team without a spymaster is offered the role in one tap.
  const you = state.you;
  const offer = you && you.role === "operative" && !seated.some((p) => p.team === you.team && p.role === "spymaster")
    ? h("div", { class: "seat-offer" },
      h("p", { text: interpolate(_("%(team)s has no spymaster yet. Will you give the clues?"), { team: TEAM[you.team] }) }),
      h("button", { type: "button", id: "take-spymaster", onclick: () => send({ action: "sit", team: you.team, role: "spymaster" }) },
        interpolate(_("Be %(team)s's spymaster"), { team: TEAM[you.team] })))
    : null;
  const unseated = !you || you.role === "spectator";
  return h("div", { class: "deal" },
    offer,
    unseated && you ? teamPicker(state.seating.teams, "operative", send) : null,
    h("p", { class: "hint", text: hint }),
    state.you && state.you.role !== "spectator"
      ? h("button", { type: "button", class: "primary", id: "deal", onclick: () => send({ action: "start_game" }) }, label)
      : h("p", { class: "muted", text: _("Take a seat to deal a game.") }),
    houseRules(state, send));
}

function scoreboard(state) {
  const board = (state.scoreboard && state.scoreboard.codenames) || {};
  const parts = [];
  if (board.red || board.blue) parts.push(`${SYMBOL.red} ${TEAM.red} ${board.red || 0} – ${board.blue || 0} ${TEAM.blue} ${SYMBOL.blue}`);
  if (board.coop_best) parts.push(interpolate(_("Best co-operative score: %(score)s"), { score: board.coop_best }));
  return parts.length ? h("p", { class: "scoreboard", text: parts.join(" · ") }) : null;
}

// ---- the view ----------------------------------------------------------------------------
export function render(container, state, ctx) {
  const play = state.play;
  const seat = seatOf(state);
  state_you_id = state.you ? state.you.id : null;
  const names = Object.fromEntries(state.players.map((p) => [p.id, p.name]));
  container.classList.toggle("spymaster-view", Boolean(play && play.sees_key && play.phase !== "over"));
  container.dataset.role = seat.role;
  if (!play) {
    clearInterval(countdownTimer);
    last.gameNumber = null;
    container.replaceChildren(...[h("h2", { text: _("Codenames") }), scoreboard(state), lobbyPanel(state, ctx.send)].filter(Boolean));
    return;
  }
  const fresh = announceChanges(play, ctx);
  alertTurn(play, seat);
  const over = play.phase === "over";
  const mine = myTurnToAct(play, seat);
  if (focusPos === null || !play.cards[focusPos]) {
    const open = play.cards.find((c) => !c.covered);
    focusPos = open ? open.position : 0;
  }
  const remaining = h("p", { class: "remaining" },
    ["red", "blue"].map((team) =>
      h("span", { class: `left left-${team}` }, `${SYMBOL[team]} ${TEAM[team]}: `,
        h("strong", { text: String(play.remaining[team]) }), ` ${_("left")}`)));
  const clue = play.clue && !over
    ? h("p", { class: `current-clue clue-${play.clue.team}` }, h("span", { class: "label", text: _("Clue") }),
      h("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[play.clue.team] }),
      h("strong", { class: "clue-word", text: play.clue.word }), h("span", { class: "clue-number", text: numberText(play.clue.number) }))
    : null;
  const winner = over ? (play.mode === "coop" ? (play.winner ? play.rules.coop_team : null) : play.winner) : null;
  const status = h("div", { class: `status turn-${over ? winner || "none" : play.team}${over ? " over" : ""}${mine ? " mine" : ""}`, role: "status" },
    h("span", { class: "turn-badge", "aria-hidden": "true", text: over ? (winner ? "★" : SYMBOL.assassin) : SYMBOL[play.team] }),
    h("span", { class: "status-text", text: statusText(play, seat, names) }), countdown(play));
  // The cards are in the room's word language, which may not be the page's.
  const board = h("div", { class: `board${over ? " ended" : ""}`, role: "group", "aria-label": _("Board"), lang: state.language || null,
    onkeydown: boardKeys, onfocusin: (event) => {
      const target = event.target.closest(".card");
      if (target) focusPos = Number(target.dataset.position);
    } },
  play.cards.map((c) => card(c, play, seat, names, ctx.send, fresh)));
  const bar = h("div", { class: "actions" }, actions(play, seat, ctx.send));
  const seatedNow = seat.role !== "spectator" && !(state.you && state.you.device);
  const endPanel = over ? h("div", { class: "end" },
    scoreboard(state),
    seatedNow ? h("div", { class: "row" },
      h("button", { type: "button", class: "primary", id: "next-game", onclick: () => ctx.send({ action: "start_game" }) }, _("Play again")),
      play.mode !== "coop" ? h("button", { type: "button", id: "rotate", onclick: () => ctx.send({ action: "rotate_spymasters" }) }, _("Rotate spymasters")) : null)
      : null)
    : null;
  const legend = over ? h("p", { class: "key-legend" },
    h("span", { text: _("The whole key is shown.") }),
    h("span", { text: _("Filled: found during the game") }),
    h("span", { text: _("Dashed: never found") })) : null;
  const abandon = !over && seatedNow ? h("details", { class: "abandon" },
    h("summary", { text: _("New game…") }),
    h("button", { type: "button", class: "danger", onclick: () => {
      if (confirm(_("Abandon this game and deal a new one?"))) ctx.send({ action: "start_game", confirm: true });
    } }, _("Abandon and deal again"))) : null;
  container.replaceChildren(...[
    h("div", { class: "game-head" }, h("h2", { text: interpolate(_("Codenames · game %(n)s"), { n: play.number }) }), remaining),
    status, endPanel, clue, bar, board, legend,
    h("section", { class: "log" }, h("h3", { text: _("Clues") }), clueLog(play)),
    deviceLink(state, ctx.send), houseRules(state, ctx.send), abandon,
  ].filter(Boolean));
  watchFit(board);
  const focusWord = document.getElementById("clue-word");
  if (focusWord && document.activeElement === document.body && !matchMedia("(pointer: coarse)").matches) focusWord.focus();
}

// What changed since the last push: said to screen readers, and the newly covered cards
// (returned) get the reveal animation and the "last revealed" ring.
function announceChanges(play, ctx) {
  if (last.gameNumber !== play.number) {
    last = { ...last, clueKey: null, covered: play.cards.map((c) => c.covered), gameNumber: play.number, revealed: null };
    focusPos = null;
  }
  const clueKey = play.clue ? `${play.log.length}:${play.clue.word}` : null;
  if (clueKey && clueKey !== last.clueKey) {
    ctx.announce(interpolate(_("%(team)s clue: %(word)s, %(number)s"), { team: TEAM[play.clue.team], word: play.clue.word, number: numberText(play.clue.number) }));
  }
  last.clueKey = clueKey;
  const fresh = new Set();
  play.cards.forEach((c, i) => {
    if (c.covered && last.covered && !last.covered[i]) {
      fresh.add(c.position);
      last.revealed = c.position;
      ctx.announce(`${c.word}: ${IDENTITY[c.identity]}`);
    }
  });
  last.covered = play.cards.map((c) => c.covered);
  return fresh;
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
    turnAlert(statusText(play, seat, {}), { kind: play.mode === "coop" ? "" : play.winner });
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
