// Codenames: renders the state the server sent for this browser. The server decides
// what this seat may know; nothing here hides anything it was given.
import { _, h, interpolate, serverNow } from "./dom.js";

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

let last = { clueKey: null, covered: null, myTurn: false, gameNumber: null };
let countdownTimer = null;
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

function beep() {
  if (localStorage.getItem("sound") !== "on") return;
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.06;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.15);
  } catch { /* sound is a nicety */ }
}

// ---- pieces ------------------------------------------------------------------------------
function card(cardState, play, seat, names, send) {
  const identity = cardState.identity;
  const classes = ["card"];
  // Long words get a smaller face so they fit a phone's column without breaking.
  const length = [...cardState.word].length;
  if (length >= 11) classes.push("longest");
  else if (length >= 9) classes.push("longer");
  else if (length >= 7) classes.push("long");
  if (identity) classes.push(`id-${identity}`);
  if (cardState.covered) classes.push("covered");
  else if (identity) classes.push("keyed");
  const proposers = Object.entries(play.proposals || {})
    .filter(([, position]) => position === cardState.position).map(([id]) => names[id] || "?");
  if (proposers.length) classes.push("proposed");
  const mine = state_you_id && play.proposals && play.proposals[state_you_id] === cardState.position;
  if (mine) classes.push("mine");

  let onclick = null;
  let hint = null;
  if (!cardState.covered && play.phase !== "over") {
    if (canGuess(play, seat)) {
      onclick = () => send(mine ? { action: "confirm", turn: play.turn, position: cardState.position }
        : { action: "propose", turn: play.turn, position: cardState.position });
      hint = mine ? _("tap again to confirm") : null;
    } else if (seat.role === "spymaster" && play.phase === "clue" && play.penalty_owed === seat.team
      && seat.team === play.team && identity === seat.team) {
      onclick = () => {
        if (confirm(interpolate(_("Cover %(word)s as your penalty agent?"), { word: cardState.word }))) {
          send({ action: "penalty_cover", turn: play.turn, position: cardState.position });
        }
      };
    } else if (play.phase === "opponent" && coopSpymaster(play, seat)
      && identity && identity !== seat.team && identity !== "bystander" && identity !== "assassin") {
      onclick = () => send({ action: "opponent_cover", turn: play.turn, position: cardState.position });
    }
  }
  const label = identity ? IDENTITY[identity] : null;
  const attrs = {
    class: classes.join(" "),
    type: "button",
    dataset: { position: cardState.position },
    "aria-label": [cardState.word, label, cardState.covered ? _("covered") : null,
      proposers.length ? interpolate(_("proposed by %(names)s"), { names: proposers.join(", ") }) : null]
      .filter(Boolean).join(", "),
    disabled: onclick ? null : true,
    onclick,
  };
  return h("button", attrs,
    h("span", { class: "word", text: cardState.word }),
    identity ? h("span", { class: "tag", "aria-hidden": "true" }, `${SYMBOL[identity]} ${label}`) : null,
    proposers.length ? h("span", { class: "proposers", "aria-hidden": "true", text: `☞ ${proposers.join(", ")}` }) : null,
    hint ? h("span", { class: "hint", "aria-hidden": "true", text: hint }) : null);
}

function clueForm(play, send) {
  const word = h("input", { id: "clue-word", maxlength: 40, autocomplete: "off", autocapitalize: "none",
    "aria-label": _("Clue word"), value: draft.word, placeholder: _("one word") });
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
  } }, h("div", { class: "row" }, word, number, submit), problem);
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
  return h("ol", { class: "clue-log" }, play.log.map((entry) => h("li", { class: `clue-${entry.team}` },
    h("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[entry.team] }),
    h("span", { class: "visually-hidden", text: TEAM[entry.team] }),
    h("strong", { text: entry.word }), " ", h("span", { class: "num", text: numberText(entry.number) }),
    entry.guesses.length ? h("span", { class: "guessed", text: ` → ${entry.guesses.map((p) => play.cards[p].word).join(", ")}` }) : null,
    entry.rejected ? h("span", { class: "rejected", text: ` (${_("rejected")})` }) : null)));
}

function countdown(play) {
  const el = h("span", { class: "countdown", "aria-live": "off" });
  clearInterval(countdownTimer);
  if (!play.deadline || play.phase === "over") return null;
  const tick = () => {
    const left = Math.max(0, Math.round(play.deadline - serverNow()));
    el.textContent = `⏳ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    el.classList.toggle("urgent", left <= 10);
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

function houseRules(state, send) {
  const rules = (state.settings && state.settings.codenames) || {};
  const seated = state.you && state.you.role !== "spectator" && !state.you.device;
  const summary = [
    rules.multi_word_clues ? _("Multi-word clues allowed") : _("One-word clues"),
    rules.timer ? interpolate(_("Timer: %(clue)s s for clues, %(guess)s s for guessing"), { clue: rules.clue_seconds, guess: rules.guess_seconds })
      : _("No timer"),
  ].join(" · ");
  const body = [h("p", { class: "rules-summary", text: summary })];
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
  return h("div", { class: "deal" },
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
    container.replaceChildren(...[h("h2", { text: _("Codenames") }), scoreboard(state), lobbyPanel(state, ctx.send)].filter(Boolean));
    return;
  }
  announceChanges(play, ctx);
  const over = play.phase === "over";
  const remaining = h("p", { class: "remaining" },
    ["red", "blue"].map((team) =>
      h("span", { class: `left left-${team}` }, `${SYMBOL[team]} ${TEAM[team]}: `,
        h("strong", { text: String(play.remaining[team]) }), ` ${_("left")}`)));
  const clue = play.clue && !over
    ? h("p", { class: `current-clue clue-${play.clue.team}` }, h("span", { class: "label", text: _("Clue") }),
      h("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[play.clue.team] }),
      h("strong", { class: "clue-word", text: play.clue.word }), h("span", { class: "clue-number", text: numberText(play.clue.number) }))
    : null;
  const status = h("div", { class: `status turn-${play.team}${over ? " over" : ""}`, role: "status" },
    h("span", { class: "turn-badge", "aria-hidden": "true", text: SYMBOL[over ? (play.winner || "assassin") : play.team] }),
    h("span", { class: "status-text", text: statusText(play, seat, names) }), countdown(play));
  // The cards are in the room's word language, which may not be the page's.
  const board = h("div", { class: "board", role: "group", "aria-label": _("Board"), lang: state.language || null },
    play.cards.map((c) => card(c, play, seat, names, ctx.send)));
  const bar = h("div", { class: "actions" }, actions(play, seat, ctx.send));
  const endPanel = over ? h("div", { class: "end" },
    scoreboard(state),
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", id: "next-game", onclick: () => ctx.send({ action: "start_game" }) }, _("Next game")),
      h("button", { type: "button", id: "rotate", onclick: () => ctx.send({ action: "rotate_spymasters" }) }, _("Rotate spymasters"))))
    : null;
  const abandon = !over && seat.role !== "spectator" && !(state.you && state.you.device) ? h("details", { class: "abandon" },
    h("summary", { text: _("New game…") }),
    h("button", { type: "button", class: "danger", onclick: () => {
      if (confirm(_("Abandon this game and deal a new one?"))) ctx.send({ action: "start_game", confirm: true });
    } }, _("Abandon and deal again"))) : null;
  container.replaceChildren(...[
    h("div", { class: "game-head" }, h("h2", { text: interpolate(_("Codenames · game %(n)s"), { n: play.number }) }), remaining),
    status, clue, board, bar, endPanel,
    h("section", { class: "log" }, h("h3", { text: _("Clues") }), clueLog(play)),
    deviceLink(state, ctx.send), houseRules(state, ctx.send), abandon,
    h("label", { class: "sound" }, h("input", { type: "checkbox", checked: localStorage.getItem("sound") === "on" ? true : null,
      onchange: (e) => localStorage.setItem("sound", e.target.checked ? "on" : "off") }), " ", _("Sound when it is my turn")),
  ].filter(Boolean));
  const focusWord = document.getElementById("clue-word");
  if (focusWord && document.activeElement === document.body) focusWord.focus();
}

function announceChanges(play, ctx) {
  if (last.gameNumber !== play.number) {
    last = { clueKey: null, covered: play.cards.map((c) => c.covered), myTurn: false, gameNumber: play.number };
  }
  const clueKey = play.clue ? `${play.log.length}:${play.clue.word}` : null;
  if (clueKey && clueKey !== last.clueKey) {
    ctx.announce(interpolate(_("%(team)s clue: %(word)s, %(number)s"), { team: TEAM[play.clue.team], word: play.clue.word, number: numberText(play.clue.number) }));
  }
  last.clueKey = clueKey;
  play.cards.forEach((c, i) => {
    if (c.covered && last.covered && !last.covered[i]) ctx.announce(`${c.word}: ${IDENTITY[c.identity]}`);
  });
  last.covered = play.cards.map((c) => c.covered);
}

export function title(state) {
  const play = state.play;
  if (!play) return null;
  const seat = seatOf(state);
  const mine = myTurnToAct(play, seat);
  if (mine && !last.myTurn) beep();
  last.myTurn = mine;
  return `${mine ? "● " + _("Your turn") + " · " : ""}${_("Codenames")} · ${state.slug}`;
}
