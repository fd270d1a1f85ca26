// Codenames' replay frame, drawn with the live game's own pieces and words: the board as
// its spymasters saw it (the whole key; filled = found, dashed = never found, the card
// just touched ringed), the status line, the agents left and the clue log (wrong guesses
// struck, each bot clue's idea).
import { _, h, ngettext } from "../dom.js";
import { IDENTITY, SYMBOL, TEAM, statusText } from "./common.js";
import { clueLog } from "./turn.js";

const SPECTATOR = { team: "", role: "spectator" };
// A word stays on one line at the largest size its card holds, never below 12 px; a word
// still too wide at 12 px is narrowed, never clipped.
const MIN_WORD_PX = 12;
let measure = null;

function fitWords(list) {
  measure = measure || document.createElement("canvas").getContext("2d");
  for (const word of list.querySelectorAll(".card .word")) {
    word.style.fontSize = "";
    word.style.transform = "";
    const card = word.parentElement;
    const style = getComputedStyle(card);
    const room = card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 4;
    const shown = getComputedStyle(word);
    const base = parseFloat(shown.fontSize);
    if (!(room > 0) || !base) continue;
    measure.font = `${shown.fontWeight} ${base}px ${shown.fontFamily}`;
    const text = shown.textTransform === "uppercase" ? word.textContent.toUpperCase()
      : shown.textTransform === "capitalize" ? word.textContent.replace(/(^|\s)\S/g, (c) => c.toUpperCase()) : word.textContent;
    const widest = Math.max(...text.trim().split(/\s+/).map((part) => measure.measureText(part).width));
    const size = widest > room ? Math.max(MIN_WORD_PX, (base * room) / widest) : base;
    if (size < base) word.style.fontSize = `${size.toFixed(1)}px`;
    const width = (widest * size) / base;
    if (width > room) word.style.transform = `scaleX(${(room / width).toFixed(3)})`;
  }
}

// Fitted again whenever the board changes size (a rotation, a TV's window).
let observer = null;
function watch(list) {
  fitWords(list);
  if (!window.ResizeObserver) return;
  if (!observer) {
    let width = null;
    observer = new ResizeObserver(() => {
      const current = document.querySelector(".replay-cn .board");
      if (current && current.clientWidth !== width) {
        width = current.clientWidth;
        fitWords(current);
      }
    });
  }
  observer.disconnect();
  observer.observe(list);
}

export function render(board, frame, root, previous) {
  const touched = previous ? [...frame.covered].findIndex((c, i) => c !== "." && previous.covered[i] === ".") : -1;
  const cards = board.words.map((word, i) => {
    const identity = board.key[i];
    const covered = frame.covered[i] !== ".";
    return h("li", { class: `card id-${identity} ${covered ? "covered" : "keyed"}${i === touched ? " last" : ""}`, dataset: { position: i } },
      h("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[identity] }),
      h("span", { class: `word${/\s/.test(word.trim()) ? " multi" : ""}`, text: word }),
      covered ? null : h("span", { class: "tag", "aria-hidden": "true" }, h("span", { class: "label", text: IDENTITY[identity] })),
      h("span", { class: "visually-hidden", text: ", " + IDENTITY[identity] + (covered ? ", " + _("found during the game") : "") }));
  });
  // The live game's view of this moment, as a spectator sees it with the key open.
  const play = {
    mode: board.mode, phase: frame.over ? "over" : frame.phase, team: frame.team, winner: frame.winner,
    reason: frame.reason, score: frame.score, rating: frame.rating, guesses_left: frame.guesses_left,
    guesses_made: frame.guesses_made, penalty_owed: null, rules: {},
    log: frame.log.map(([team, word, number, guesses, rejected]) => ({ team, word, number, guesses, rejected })),
    cards: board.words.map((word, i) => ({ word, identity: board.key[i] })),
    explanations: board.notes,
  };
  const winner = frame.over ? (board.mode === "coop" ? (frame.winner ? board.coop_team : null) : frame.winner) : null;
  const turn = frame.over ? winner || "none" : frame.team;
  const status = h("div", { class: `status turn-${turn}${frame.over ? " over" : ""}`, role: "status" },
    h("span", { class: "turn-badge", "aria-hidden": "true", text: frame.over ? (winner ? "★" : SYMBOL.assassin) : SYMBOL[frame.team] }),
    h("span", { class: "status-text", text: statusText(play, SPECTATOR) }));
  const remaining = h("p", { class: "remaining" }, ["red", "blue"].map((team, i) => {
    const [before, after = ""] = ngettext("%(n)s left", "%(n)s left", frame.left[i]).split("%(n)s");
    return h("span", { class: `left left-${team}` }, `${SYMBOL[team]} ${TEAM[team]}: ${before}`, h("strong", { text: String(frame.left[i]) }), after);
  }));
  const list = h("ol", { class: "board ended", "aria-label": _("Board"), lang: root.dataset.wordsLang || null }, cards);
  const log = h("section", { class: "log replay-side" }, h("h2", { text: _("Clues") }), clueLog(play));
  root.replaceChildren(h("div", { class: "replay-cn" },
    h("div", { class: "replay-main" }, status, remaining, list,
      h("p", { class: "key-legend" }, h("span", { text: _("Filled: found during the game") }), h("span", { text: _("Dashed: never found") }))),
    log));
  watch(list);
  // A long log scrolls inside its panel on a TV: the latest clue is the one in view.
  log.scrollTop = log.scrollHeight;
}
