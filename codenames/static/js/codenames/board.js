// Codenames' board: 25 cards, arrow-key moves between them, and words fitted to their card.
import { _, h, interpolate } from "../dom.js";
import { IDENTITY, SYMBOL, canGuess, coopSpymaster, cur } from "./common.js";

// The card that holds the board's one Tab stop (arrow keys move between cards).
export const focus = { pos: null };

// `b`: the board's slice: `play` (phase, mode, team, turn, penalty_owed, proposals,
// rules.coop_team), `cards`, `seat`, `names`, `lastRevealed`, `focusPos`, `youId`, `language`.
function card(cardState, b) {
  const { play, seat, names } = b;
  const send = cur.send;
  const identity = cardState.identity;
  const position = cardState.position;
  const classes = ["card"];
  if (identity) classes.push(`id-${identity}`);
  if (cardState.covered) classes.push("covered");
  else if (identity) classes.push("keyed");
  if (b.lastRevealed === position) classes.push("last");
  const proposers = Object.entries(play.proposals || {})
    .filter(([, pos]) => pos === position).map(([id]) => names[id] || "?");
  if (proposers.length) classes.push("proposed");
  const mine = b.youId && play.proposals && play.proposals[b.youId] === position;
  if (mine) classes.push("mine");
  let onclick = null;
  let hint = null;
  if (!cardState.covered && play.phase !== "over") {
    if (canGuess(play, seat)) {
      onclick = () => send(mine ? { action: "confirm", turn: play.turn, position }
        : { action: "propose", turn: play.turn, position });
      hint = mine ? _("tap again") : null;
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
    tabindex: position === b.focusPos ? 0 : -1,
    // The word again for the card's upside-down print (drawn by CSS, never read aloud).
    dataset: { position, word: cardState.word },
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

// Each word on one line at the largest size that fits its card: shrink to at least 14 px
// (read at arm's length on a phone), then narrow the letters (a word is never broken in
// the middle).
const MIN_CARD_PX = 14;
let measure = null;
function fitWords(board) {
  const words = board.querySelectorAll(".card .word");
  if (!words.length) return;
  const cardEl = words[0].parentElement;
  const style = getComputedStyle(cardEl);
  const room = cardEl.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 2;
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
export function watchFit(board) {
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

export function board(b) {
  const over = b.play.phase === "over";
  // The cards are in the room's word language, which may not be the page's.
  return h("div", { class: `board${over ? " ended" : ""}`, role: "group", "aria-label": _("Board"), lang: b.language || null,
    onkeydown: boardKeys, onfocusin: (event) => {
      const target = event.target.closest(".card");
      if (target) focus.pos = Number(target.dataset.position);
    } },
  b.cards.map((c) => card(c, b)));
}

// Motion on a board just drawn: a new game's cards arrive one after another (the CSS
// staggers on --i), the cards just covered flip. Marked on the drawn elements, not in the
// board's slice: a push that changes nothing on the board (a player's presence) leaves a
// running animation alone, and one that does redraws the board as it stands, still.
export function animate(el, { dealt, fresh }) {
  if (dealt) {
    el.classList.add("dealing");
    el.querySelectorAll(".card").forEach((c, i) => c.style.setProperty("--i", i));
  }
  for (const position of fresh) {
    const target = el.querySelector(`#card-${position}`);
    if (target) target.classList.add("reveal");
  }
}
