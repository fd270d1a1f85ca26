// Decrypto's replay frame, in the live game's words and colours: each team's keywords and
// tokens (an interception is a token won, ✔ in the game's colour; a miscommunication ✘),
// this round's code and clues, and the round-by-round sheet with every code revealed so
// far (a wrong guess struck). On a phone each round of the sheet is a small card of its
// own instead of a row too wide for the screen.
import { _, h, interpolate } from "../dom.js";
import { TASKS, cur, fmtCode, teamName, teamTag } from "./common.js";

// A guess beside the code it aimed at: ✔ right, or ✘ and struck.
function guessed(guess, code, kind) {
  if (!guess) return h("span", { class: "muted", text: "—" });
  const right = guess.join() === code.join();
  return h("span", { class: `replay-guess ${kind} ${right ? "right" : "wrong"}` },
    h("span", { class: "replay-code", text: fmtCode(guess) }),
    h("span", { class: right ? "dc-ok" : "dc-miss", "aria-hidden": "true", text: right ? " ✔" : " ✘" }),
    h("span", { class: "visually-hidden", text: ` (${right ? _("right") : _("wrong")})` }));
}

function tokens(intercepts, misses) {
  return h("p", { class: "replay-tokens" },
    h("span", { class: "dc-tokens-int", title: _("Interception tokens") },
      h("span", { class: "dc-pip", "aria-hidden": "true", text: "✔" }), h("span", { "aria-hidden": "true", text: ` ${intercepts}/2` }),
      h("span", { class: "visually-hidden", text: interpolate(_("Interceptions %(n)s/2"), { n: intercepts }) })),
    h("span", { class: "dc-tokens-mis", title: _("Miscommunication tokens") },
      h("span", { class: "dc-pip", "aria-hidden": "true", text: "✘" }), h("span", { "aria-hidden": "true", text: ` ${misses}/2` }),
      h("span", { class: "visually-hidden", text: interpolate(_("Miscommunications %(n)s/2"), { n: misses }) })));
}

function sheet(board, frame, team) {
  const rows = board.history.slice(0, frame.shown).filter((row) => row[1] === team);
  const [intercepts, misses] = frame.tokens[team];
  const turn = frame.turns[team];
  const heads = [_("Round"), _("Clues"), _("Guess"), _("Interception"), _("Code")];
  const cell = (i, attrs, ...content) => h("td", { ...attrs, "data-label": heads[i] }, ...content);
  return h("section", { class: `replay-team dc-sheet dc-${team}`, dataset: { team } },
    h("h2", {}, teamTag(team)),
    h("ol", { class: "replay-keywords", "aria-label": _("Keywords") }, board.keywords[team].map((word, i) =>
      h("li", {}, h("span", { class: "dc-digit", text: String(i + 1) }), " ", h("span", { class: "dc-word", text: word })))),
    tokens(intercepts, misses),
    turn ? h("p", { class: "replay-current" }, h("strong", { text: interpolate(_("Round %(r)s"), { r: frame.round }) }),
      ` · ${board.names[turn.encryptor] || "?"} · `, h("span", { class: "dc-code-text", text: fmtCode(turn.code) }),
      turn.clues.length ? ` · ${turn.clues.map((c) => c || "—").join(" / ")}` : "") : null,
    rows.length ? h("table", { class: "replay-sheet" },
      h("thead", {}, h("tr", {}, heads.map((text) => h("th", { scope: "col", text })))),
      h("tbody", {}, rows.map(([round, , encryptor, clues, interception, decipher, code]) => h("tr", {},
        cell(0, { class: "round" }, String(round)),
        cell(1, { class: "clues" }, clues.map((c) => c || "—").join(" / "), h("span", { class: "muted", text: ` (${board.names[encryptor] || "?"})` })),
        cell(2, { class: "own-guess" }, guessed(decipher, code, "decipher")),
        cell(3, { class: "interception" }, guessed(interception, code, "intercept")),
        cell(4, { class: "code" }, h("strong", { text: fmtCode(code) })))))) : null);
}

export function render(board, frame, root) {
  // The live game's team names and tags read the variant and the names from here.
  cur.look = { mode: board.mode, colours: { white: "white", black: "black" }, names: board.names };
  const task = { clues: TASKS.clues, tiebreak: TASKS.guess_keywords, judge: TASKS.judge }[frame.phase];
  let head = interpolate(_("Round %(r)s"), { r: frame.round }) + (task ? ` · ${task}` : "");
  if (frame.over) {
    head = frame.winners.length === 2 ? _("Both teams win")
      : frame.winners.length ? interpolate(_("%(team)s wins"), { team: teamName(frame.winners[0]) }) : _("Game over");
  }
  const winners = frame.over && frame.winners.length === 1 ? teamTag(frame.winners[0]) : null;
  const turn = frame.over && frame.winners.length === 1 ? `dc-${frame.winners[0]}` : "";
  root.replaceChildren(h("p", { class: `replay-turn ${turn}` }, winners ? h("span", { class: "dc-sym", "aria-hidden": "true", text: "★ " }) : null, head),
    h("div", { class: "replay-teams" }, sheet(board, frame, "white"), sheet(board, frame, "black")));
}
