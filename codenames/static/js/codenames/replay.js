// Codenames' replay frame: the whole key shown, covered cards marked (the one just
// touched ringed), the clue log so far with each bot clue's intended words.
import { h, TEAM_SYMBOLS } from "../dom.js";

const SYMBOL = { red: "◆", blue: "●", bystander: "○", assassin: "✖" };
// A bot's note reads "CLUE 2 → card, card": the clue is on the line already.
const meant = (note) => note.split("→").pop().trim();

export function render(board, frame, root, previous) {
  const L = board.labels;
  const touched = previous ? [...frame.covered].findIndex((c, i) => c !== "." && previous.covered[i] === ".") : -1;
  const cards = board.words.map((word, i) => {
    const identity = board.key[i];
    const covered = frame.covered[i] !== ".";
    return h("li", { class: `card id-${identity}${covered ? " covered" : ""}${i === touched ? " touched" : ""}` },
      h("span", { class: "word" }, word),
      h("span", { class: "identity" }, h("span", { class: "sym", "aria-hidden": "true" }, SYMBOL[identity]),
        h("span", { class: "full" }, L.identity[identity] + (covered ? ` · ${L.covered}` : ""))));
  });
  const turn = frame.over
    ? (frame.winner ? `${TEAM_SYMBOLS[frame.winner]} ${L.team[frame.winner]} — ${L.wins}` : L.over)
    : `${TEAM_SYMBOLS[frame.team]} ${L.team[frame.team]} · ${L.phase[frame.phase] || ""}`;
  const left = h("p", { class: "replay-left" },
    ...["red", "blue"].map((team, i) => h("span", { class: `team-${team}` }, `${TEAM_SYMBOLS[team]} ${L.team[team]} ${frame.left[i]}`)),
    ` ${L.left}`);
  const log = h("ol", { class: "replay-log" }, ...frame.log.map(([team, word, number, guesses, rejected], i) => {
    const note = board.notes[String(i)];
    return h("li", { class: `team-${team}${rejected ? " rejected" : ""}` },
      h("strong", {}, `${TEAM_SYMBOLS[team]} ${word} ${number === null ? "∞" : number}`),
      guesses.length ? ` → ${guesses.map((p) => board.words[p]).join(", ")}` : "",
      note ? h("span", { class: "bot-note" }, ` (${L.meant} ${meant(note)})`) : "");
  }));
  root.replaceChildren(h("div", { class: "replay-cn" },
    h("div", { class: "replay-main" }, h("p", { class: "replay-turn" }, turn), left,
      h("ol", { class: "replay-cards", "aria-label": L.board }, ...cards)),
    h("div", { class: "replay-side" }, h("h2", { class: "replay-subtitle" }, L.clues), frame.log.length ? log : h("p", {}, "—"))));
}
