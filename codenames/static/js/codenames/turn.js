// Codenames' turn: the clue form and its CN-10 check, the action bar and the clue log.
import { _, h, interpolate } from "../dom.js";
import { fold } from "../ui.js";
import { SYMBOL, TEAM, canGuess, coopSpymaster, cur, numberText } from "./common.js";

const HYPHENS = /[-\u2010-\u2014\u2212]/;
const MAX_NUMBER = 9;
let draft = { word: "", number: "1" };
const length = (text) => [...text].length;

// CN-10, answered before sending; the server checks again and has the last word. The
// board's words come folded by the server (`folded_words`, Python's casefold).
export function clueProblem(word, play) {
  const clue = word.normalize("NFC").trim().split(/\s+/).join(" ");
  if (!clue) return _("Type a clue.");
  const multi = play.rules.multi_word_clues;
  if (!multi && clue.includes(" ")) return _("The clue must be a single word.");
  if (!multi && HYPHENS.test(clue)) return _("The clue must be a single word, without hyphens.");
  const parts = [fold(clue), ...(multi ? clue.split(/[\s\-\u2010-\u2014\u2212]+/).filter(Boolean).map(fold) : [])];
  const visible = play.cards.filter((card) => !card.covered).map((card) => [card.word, play.folded_words[card.position]]);
  for (const [shown, form] of visible) {
    if (parts.includes(form)) return interpolate(_("%(word)s is on the board."), { word: shown });
  }
  for (const [shown, form] of visible) {
    for (const part of parts) {
      if (Math.min(length(part), length(form)) >= 3 && (part.includes(form) || form.includes(part))) {
        return interpolate(_("The clue and %(word)s contain one another."), { word: shown });
      }
    }
  }
  return null;
}

function clueForm(multi, send) {
  const word = h("input", { id: "clue-word", maxlength: 40, autocomplete: "off", autocapitalize: "none", enterkeyhint: "send",
    "aria-label": _("Clue word"), value: draft.word, placeholder: multi ? _("your clue") : _("one word") });
  const number = h("select", { id: "clue-number", "aria-label": _("Number") },
    [...Array(MAX_NUMBER + 1).keys()].map((n) => h("option", { value: String(n), text: String(n) })),
    h("option", { value: "inf", text: "∞" }));
  number.value = draft.number;
  const problem = h("p", { class: "clue-problem error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", id: "clue-send" }, _("Give clue"));
  const check = () => {
    draft.word = word.value;
    draft.number = number.value;
    const message = word.value.trim() ? clueProblem(word.value, cur.play) : null;
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
    send({ action: "give_clue", turn: cur.play.turn, word: word.value, number: value });
    draft = { word: "", number: "1" };
  } }, word, h("div", { class: "clue-line" }, number, submit), problem);
}

// `a`: the bar's slice: `play` (phase, mode, team, turn, guesses_made, penalty_owed,
// rules), `seat`, `mine` (this player's proposal) and `mineWord`.
export function actions(a) {
  const { play, seat, mine } = a;
  const send = cur.send;
  const bar = [];
  if (play.phase === "over") return bar;
  if (seat.role === "spymaster" && seat.team === play.team && play.phase === "clue") {
    bar.push(clueForm(play.rules.multi_word_clues, send));
  }
  if (canGuess(play, seat)) {
    if (mine !== null) {
      bar.push(h("button", { type: "button", class: "primary", id: "confirm-guess",
        onclick: () => send({ action: "confirm", turn: play.turn, position: mine }) },
      interpolate(_("Confirm %(word)s"), { word: a.mineWord })));
    }
    bar.push(h("button", { type: "button", id: "end-turn", disabled: play.guesses_made ? null : true,
      title: play.guesses_made ? null : _("Make at least one guess first"),
      onclick: () => send({ action: "end_turn", turn: play.turn }) }, _("End turn")));
  }
  if (seat.role === "spymaster" && play.phase === "guess" && seat.team !== play.team && play.mode !== "coop") {
    // CN-20 is a rare referee call: folded in a small menu, and confirmed in words.
    bar.push(h("details", { class: "referee", id: "referee" },
      h("summary", { id: "referee-menu" }, _("Referee")),
      h("button", { type: "button", class: "danger", id: "reject-clue", onclick: () => rejectDialog(play, send) }, _("Reject clue…"))));
  }
  if (play.phase === "opponent" && coopSpymaster(play, seat)) {
    // The status line already says whose turn it is: here, only what to tap.
    bar.push(h("p", { class: "instruction", text: _("Tap one of the opponent's agents to cover it.") }));
  }
  if (play.phase === "clue" && play.penalty_owed === seat.team && seat.role === "spymaster" && seat.team === play.team) {
    bar.push(h("p", { class: "instruction", text: _("Penalty: you may tap one of your agents to cover it before your clue.") }));
  }
  return bar;
}

// CN-20/21, said before it is done: what rejecting does, to whom, and the penalty it earns.
function rejectDialog(play, send) {
  const old = document.getElementById("reject-dialog");
  if (old) old.remove();
  const team = TEAM[play.team];
  const word = play.clue ? play.clue.word : "";
  const dialog = h("dialog", { id: "reject-dialog", class: "confirm-dialog", "aria-labelledby": "reject-title" },
    h("h2", { id: "reject-title", text: interpolate(_("Reject %(team)s's clue “%(word)s”?"), { team, word }) }),
    h("p", { id: "reject-what", text: _("Only for a clue that breaks the rules. Their turn ends at once, and before your next clue you may cover one of your own agents.") }),
    h("div", { class: "row" },
      h("button", { type: "button", class: "danger", id: "reject-confirm", onclick: () => {
        dialog.close();
        send({ action: "reject_clue", turn: play.turn });
      } }, _("Reject the clue")),
      h("button", { type: "button", id: "reject-cancel", onclick: () => dialog.close() }, _("Cancel"))));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

// Each guess of a clue in the colour of what it turned out to be: right (the clue team's
// agent) or wrong, with the identity's symbol (colour never speaks alone).
function guessed(entry, play) {
  return entry.guesses.map((p, i) => {
    const card = play.cards[p];
    const identity = card.identity || "";
    const right = identity === entry.team;
    return [i ? ", " : " → ", h("span", { class: `guess g-${right ? "right" : "wrong"} g-${identity}` },
      h("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[identity] || "" }), card.word,
      h("span", { class: "visually-hidden", text: ` (${right ? _("right") : _("wrong")})` }))];
  }).flat();
}

export function clueLog(play) {
  if (!play.log.length) return h("p", { class: "muted", text: _("No clues yet.") });
  return h("ol", { class: "clue-log" }, play.log.map((entry, i) => h("li", { class: `clue-${entry.team}` },
    h("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[entry.team] }),
    h("span", { class: "visually-hidden", text: TEAM[entry.team] }),
    h("strong", { text: entry.word }), " ", h("span", { class: "num", text: numberText(entry.number) }),
    entry.guesses.length ? h("span", { class: "guessed" }, guessed(entry, play)) : null,
    entry.rejected ? h("span", { class: "rejected", text: ` (${_("rejected")})` }) : null,
    // After the game, what a bot spymaster meant: "SEAT 2 → saddle, bench".
    (play.explanations || {})[i] ? h("span", { class: "explained", text: ` · ${interpolate(_("bot's idea: %(idea)s"), { idea: idea(play.explanations[i], entry) })}` }) : null)));
}

// A bot's note repeats its clue ("SEAT 2 → saddle, bench"), which the line shows already:
// only the words it meant are kept.
function idea(note, entry) {
  const [said, meant] = String(note).split(" → ");
  return meant !== undefined && said.toLowerCase().startsWith(String(entry.word).toLowerCase()) ? meant : note;
}
