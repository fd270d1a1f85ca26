// Decrypto's guessing: the code being guessed and the team's shared draft (DC-10, DC-S2).
import { _, h, interpolate } from "../dom.js";
import { DIGITS, cur, nameOf, send, seatColour, stamp, teamName, teamTag } from "./common.js";

const GUESS_ECHO_WAIT = 3000;

function guessCode() {
  return [1, 2, 3].map((i) => {
    const value = document.getElementById(`dc-guess-${i}`).value;
    return value ? Number(value) : null;
  });
}

// `current`: the code's team, Encryptor, clues, locks and this seat's guess (task, locked,
// can_edit; its draft is written in by patchGuess); `keywords`: the team's own when
// deciphering; `interceptor`: this seat is the Interceptor.
export function guessPanel({ current, keywords, interceptor }) {
  const guess = current.guess;
  const editable = guess && guess.can_edit && !guess.locked;
  const rows = current.clues.map((clue, i) => h("li", { class: "dc-guess-row" },
    h("label", { for: guess ? `dc-guess-${i + 1}` : null, class: "dc-clue" }, clue || h("em", { class: "muted", text: _("(no clue)") })),
    guess ? h("select", { id: `dc-guess-${i + 1}`, disabled: editable ? null : true, "aria-label": interpolate(_("Digit for clue %(n)s"), { n: i + 1 }),
      onchange: () => {
        const code = guessCode();
        cur.local.guess = { code: JSON.stringify(code), at: Date.now() };
        send({ action: "edit_guess", ...stamp(cur.play), guessing_for: cur.play.current.team, code });
      } },
    h("option", { value: "", text: "–" }),
    DIGITS.map((d) => h("option", { value: String(d), text: keywords[d - 1] ? `${d} · ${keywords[d - 1]}` : String(d) }))) : null));
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
      guess.locked ? _("Guess locked") : interceptor ? _("Lock my guess") : _("Lock our guess")) : null),
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
  code.forEach((digit, i) => {
    const select = document.getElementById(`dc-guess-${i + 1}`);
    if (!select || document.activeElement === select) return;
    select.value = digit === null ? "" : String(digit);
  });
}
