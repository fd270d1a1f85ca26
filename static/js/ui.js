// Pieces both games draw alike: the countdown, the scoreboard line, the house-rules panel
// and the text folding of the clue checks. Team names and symbols are dom.js's.
import { _, h, serverNow, clockText, TEAM_NAMES, TEAM_SYMBOLS } from "./dom.js";

// ---- countdown --------------------------------------------------------------------------
// One ticking clock per name, writing into the element marked data-countdown="<name>"
// wherever it currently is (a redraw never restarts it). `format(text)`: what to show
// while time is left; `onUp()`: once per deadline, when it passes. At zero the server
// acts within a moment: the clock says so rather than sit at 0:00.
const clocks = {};
export function countdown(name, deadline, { every = 1000, format, onUp }) {
  const clock = clocks[name] || (clocks[name] = { timer: null, upFor: null });
  Object.assign(clock, { deadline, format, onUp });
  const tick = () => {
    const el = document.querySelector(`[data-countdown="${name}"]`);
    if (!el) return;
    el.hidden = !clock.deadline;
    if (!clock.deadline) return;
    const left = Math.max(0, Math.ceil(clock.deadline - serverNow()));
    const text = clockText(left);
    el.textContent = text ? clock.format(text) : `⌛ ${_("Time's up!")}`;
    el.classList.toggle("urgent", left <= 10);
    el.classList.toggle("up", !text);
    if (!text && clock.upFor !== clock.deadline) {
      clock.upFor = clock.deadline;
      clock.onUp();
    }
  };
  if (!deadline) {
    clearInterval(clock.timer);
    clock.timer = null;
  } else if (!clock.timer) {
    clock.timer = setInterval(tick, every);
  }
  tick();
}

// ---- the room's tally of one game ------------------------------------------------------
// "◆ Red 2 – 1 Blue ●" between the game's two teams, then the game's own extra counts.
export function scoreLine(board, [a, b], extras, className) {
  const parts = [];
  if (board[a] || board[b]) {
    parts.push(`${TEAM_SYMBOLS[a]} ${TEAM_NAMES[a]} ${board[a] || 0} – ${board[b] || 0} ${TEAM_NAMES[b]} ${TEAM_SYMBOLS[b]}`);
  }
  parts.push(...extras.filter(Boolean));
  return parts.length ? h("p", { class: className, text: parts.join(" · ") }) : null;
}

// ---- house rules --------------------------------------------------------------------------
// The folded panel: what everyone reads (`intro`), and for a seated player the form of
// `fields`; `save()` sends them. They apply from the next deal.
export function houseRules({ intro, fields, saveId, save }) {
  const body = [...intro];
  if (fields) {
    body.push(h("form", { class: "house-form", onsubmit: (event) => {
      event.preventDefault();
      save();
    } }, fields,
    h("p", { class: "hint", text: _("Changes apply from the next deal.") }),
    h("button", { type: "submit", id: saveId }, _("Save house rules"))));
  }
  return h("details", { class: "house-rules" }, h("summary", { text: _("House rules") }), body);
}

export const checkField = (input, label) => h("label", { class: "check" }, input, " ", label);

// A seconds field within the range the server allows (the room's `timers`, docs/protocol.md).
export function secondsInput(id, range, value) {
  return h("input", { type: "number", id, min: range.min, max: range.max, step: range.step, value: value || range.default });
}

// ---- the clue checks' text folding ---------------------------------------------------------
// The server sends the folded forms to compare against (Python's casefold); typed text is
// folded here alike: upper then lower case, then the two letters whose lower case is not
// their folded form (a final sigma, a sharp s). tests/rooms/test_fold.py holds the cases.
export const fold = (text) => text.normalize("NFC").toUpperCase().toLowerCase().replace(/ς/g, "σ").replace(/ß/g, "ss").normalize("NFC");
