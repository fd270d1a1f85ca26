// Decrypto's guessing: the code being guessed and the team's shared draft (DC-10, DC-S2).
// A digit is one tap: four buttons per clue, the chosen one pressed; a digit another clue
// already holds shows as taken, and tapping it moves it here (a code never repeats a digit).
import { _, h, interpolate } from "../dom.js";
import { DIGITS, cur, nameOf, send, seatColour, stamp, teamName, teamTag } from "./common.js";

const GUESS_ECHO_WAIT = 3000;

// The code as the buttons show it: the pressed digit of each clue, or null.
function guessCode() {
  return [1, 2, 3].map((i) => {
    const pressed = document.querySelector(`#dc-guess-${i} [aria-pressed="true"]`);
    return pressed ? Number(pressed.dataset.digit) : null;
  });
}

// Marks each clue's buttons: its own digit pressed, the other clues' digits taken.
function showCode(code) {
  code.forEach((digit, i) => {
    const row = document.getElementById(`dc-guess-${i + 1}`);
    if (!row) return;
    for (const button of row.querySelectorAll("button[data-digit]")) {
      const d = Number(button.dataset.digit);
      const taken = d !== digit && code.includes(d);
      button.setAttribute("aria-pressed", d === digit ? "true" : "false");
      button.classList.toggle("dc-taken", taken);
      button.querySelector(".dc-taken-note").textContent = taken ? ` (${_("used by another clue")})` : "";
    }
  });
}

function tapDigit(index, digit) {
  const code = guessCode();
  if (code[index] === digit) code[index] = null;  // a second tap clears it
  else {
    // A digit appears once in a code: taking it from another clue moves it here.
    code.forEach((d, i) => { if (d === digit) code[i] = null; });
    code[index] = digit;
  }
  writeDraft(code);
}

// The team's shared draft becomes `code`, here at once and on the teammates' screens.
function writeDraft(code) {
  showCode(code);
  const problem = document.getElementById("dc-guess-problem");
  if (problem) problem.textContent = "";
  cur.local.guess = { code: JSON.stringify(code), at: Date.now() };
  send({ action: "edit_guess", ...stamp(cur.play), guessing_for: cur.play.current.team, code });
}

// A bot's guess is offered, named as the bot's, and goes into the draft only when a
// person takes it: the team's guess is always a person's decision (issue 29).
function suggestionLines(suggestions) {
  return h("ul", { class: "dc-suggestions" }, suggestions.map((s, i) => h("li", { class: "dc-suggestion" },
    h("span", { id: `dc-suggestion-${i + 1}`,
      text: interpolate(_("%(name)s suggests %(code)s"), { name: nameOf(s.player), code: s.code.join("·") }) }),
    h("button", { type: "button", class: "dc-take", "aria-describedby": `dc-suggestion-${i + 1}`,
      onclick: () => writeDraft([...s.code]) }, _("Use this guess")))));
}

function digitButtons(index, editable, keywords) {
  return h("div", { class: "dc-digits", role: "group", id: `dc-guess-${index + 1}`,
    "aria-label": interpolate(_("Digit for clue %(n)s"), { n: index + 1 }) },
  DIGITS.map((d) => h("button", { type: "button", class: "dc-digit-button", dataset: { digit: d }, "aria-pressed": "false",
    disabled: editable ? null : true, onclick: () => tapDigit(index, d) },
  h("span", { "aria-hidden": keywords[d - 1] ? "true" : null, text: String(d) }),
  // Deciphering, a digit names the team's own keyword (read out, not drawn: the sheet
  // right below shows the keywords by digit).
  keywords[d - 1] ? h("span", { class: "visually-hidden", text: `${d} · ${keywords[d - 1]}` }) : null,
  h("span", { class: "visually-hidden dc-taken-note" }))));
}

// `current`: the code's team, Encryptor, clues, locks and this seat's guess (task, locked,
// can_edit, its bots' suggestions; its draft is written in by patchGuess); `keywords`: the team's own when
// deciphering; `interceptor`: this seat is the Interceptor.
export function guessPanel({ current, keywords, interceptor }) {
  const guess = current.guess;
  const editable = guess && guess.can_edit && !guess.locked;
  const rows = current.clues.map((clue, i) => h("li", { class: "dc-guess-row" },
    h("span", { class: "dc-clue", id: `dc-guess-clue-${i + 1}` }, clue || h("em", { class: "muted", text: _("(no clue)") })),
    guess ? digitButtons(i, editable, keywords) : null));
  const lockedTeams = Object.entries(current.locked).map(([team, done]) =>
    h("li", { dataset: { team } }, teamTag(team), " ", done ? _("locked") : _("thinking…")));
  return h("section", { class: `dc-current dc-${seatColour(current.team)}`, dataset: { team: current.team } },
    h("h3", {}, interpolate(_("%(team)s's clues"), { team: teamName(current.team) }),
      h("span", { class: "muted", text: ` · ${interpolate(_("Encryptor: %(name)s"), { name: nameOf(current.encryptor) })}` })),
    h("form", { class: `dc-guess${guess ? "" : " dc-readonly"}`, dataset: { task: guess ? guess.task : "watch" }, onsubmit: (event) => {
      event.preventDefault();
      const code = guessCode();
      if (code.includes(null)) {
        document.getElementById("dc-guess-problem").textContent = _("Pick a digit for every clue.");
        return;
      }
      send({ action: "lock_guess", ...stamp(cur.play), guessing_for: cur.play.current.team, code });
    } },
    h("ol", { class: "dc-guess-rows" }, rows),
    guess ? h("p", { id: "dc-guess-problem", class: "dc-problem error", role: "alert" }) : null,
    guess && guess.can_edit ? h("button", { type: "submit", class: "primary dc-wide", id: "dc-lock-guess", disabled: guess.locked ? true : null },
      guess.locked ? _("Guess locked") : interceptor ? _("Lock my guess") : _("Lock our guess")) : null,
    // Under Lock, not above it: a phone keeps Lock in its first screen.
    editable && guess.suggestions && guess.suggestions.length ? suggestionLines(guess.suggestions) : null),
    h("ul", { class: "dc-locks" }, lockedTeams));
}

export function patchGuess(play) {
  const guess = play.current && play.current.guess;
  if (!guess) return;
  // Until the server echoes this browser's last edit, an older draft arriving would undo
  // digits just picked; a teammate's edit shows once ours is in (or after a moment).
  // The part may also have just been rebuilt (a lock elsewhere): write the best-known
  // code back either way, this browser's own pending edit first.
  const pending = cur.local.guess;
  let code = guess.draft;
  if (pending && pending.code !== JSON.stringify(guess.draft) && Date.now() - pending.at < GUESS_ECHO_WAIT) {
    code = JSON.parse(pending.code);
  } else {
    cur.local.guess = null;
  }
  showCode(code);
}
