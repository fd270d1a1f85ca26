// Decrypto's tie-break: guessing the opponents' keywords, then judging (DC-25).
import { _, h, interpolate } from "../dom.js";
import { DIGITS, OTHER, CLUE_MAX, cur, myTeam, send, stamp, teamName, teamTag } from "./common.js";

// `play`: phase, seat, stamp, tiebreak and each team's keywords (`play.keywords`).
export function tiebreakSlot(play) {
  const local = cur.local;
  const tb = play.tiebreak;
  if (!tb) return null;
  const team = myTeam(play);
  const parts = [h("h3", { text: play.phase === "tiebreak" ? _("Tie-break") : _("Tie-break: guess the opponents' keywords") })];
  if (play.phase === "tiebreak" && team) {
    if (tb.submitted[team]) {
      parts.push(h("p", { text: _("Your team's guesses are in. Waiting for the other team.") }),
        h("ol", {}, (tb.guesses[team] || []).map((w) => h("li", { text: w || "—" }))));
    } else {
      parts.push(h("form", { id: "dc-tb-form", class: "dc-tb-form", onsubmit: (event) => {
        event.preventDefault();
        const words = DIGITS.map((d) => document.getElementById(`dc-tb-${d}`).value);
        send({ action: "tiebreak_guess", ...stamp(cur.play), words });
      } }, DIGITS.map((d) => h("div", { class: "dc-clue-field" },
        h("label", { for: `dc-tb-${d}` }, h("span", { class: "dc-digit", text: String(d) }),
          h("span", { class: "visually-hidden", text: interpolate(_("%(team)s's keyword %(n)s"), { team: teamName(OTHER[team]), n: d }) })),
        h("input", { id: `dc-tb-${d}`, maxlength: CLUE_MAX, autocomplete: "off", value: local.words[d - 1] || null,
          oninput: (event) => { local.words[d - 1] = event.target.value; } }))),
      h("button", { type: "submit", class: "primary dc-wide", id: "dc-tb-submit" }, _("Send our guesses")),
      h("p", { class: "hint", text: _("One member sends the team's four guesses; blanks are allowed. Their sheet below shows their clues.") })));
    }
  } else if (play.phase === "tiebreak") {
    parts.push(h("p", { class: "muted", text: _("The teams are guessing each other's keywords.") }));
  }
  if (play.phase === "judge" && team) {
    const theirs = tb.guesses[OTHER[team]] || [];
    const matches = tb.matches[OTHER[team]] || [];
    const words = play.keywords[team] || [];
    if (tb.judged[team]) {
      parts.push(h("p", { text: _("Your team has judged. Waiting for the other team.") }));
    } else {
      parts.push(h("form", { class: "dc-judge", onsubmit: (event) => {
        event.preventDefault();
        const accept = [...document.querySelectorAll(".dc-accept:checked")].map((box) => Number(box.dataset.position));
        send({ action: "judge", ...stamp(cur.play), accept });
      } },

      h("ol", {}, words.map((word, i) => h("li", { class: "dc-judge-row" },
        h("span", { class: "dc-word", text: word }), " ← ", h("strong", { text: theirs[i] || "—" }), " ",
        matches[i] ? h("span", { class: "dc-ok", text: `✔ ${_("match")}` })
          : theirs[i] ? h("label", { class: "dc-accept-label" }, h("input", { type: "checkbox", class: "dc-accept", dataset: { position: i + 1 },
            checked: local.accept.has(i + 1) ? true : null,
            onchange: (event) => { if (event.target.checked) local.accept.add(i + 1); else local.accept.delete(i + 1); } }), _("accept")) : null))),
      h("button", { type: "submit", class: "primary dc-wide", id: "dc-judge" }, _("Confirm our judgement")),
      h("p", { class: "hint", text: _("Exact matches count by themselves. Tick a guess you judge equivalent (a plural, a synonym).") })));
    }
  }
  if (tb.scores) {
    // At the end every guess, match and acceptance is public: show how each team scored.
    parts.push(...["white", "black"].map((t) => h("div", { class: "dc-tb-result", dataset: { team: t } },
      h("h4", {}, teamTag(t), " ", interpolate(_("%(n)s keywords guessed"), { n: tb.scores[t] })),
      h("ol", {}, (tb.guesses[t] || []).map((word, i) => {
        const hit = (tb.matches[t] || [])[i];
        const accepted = (tb.accepted[OTHER[t]] || []).includes(i + 1);
        return h("li", {}, h("strong", { text: word || "—" }), " → ", h("span", { class: "dc-word", text: (play.keywords[OTHER[t]] || [])[i] || "" }), " ",
          hit ? h("span", { class: "dc-ok", text: "✔" }) : accepted ? h("span", { class: "dc-ok", text: `✔ ${_("accepted")}` }) : h("span", { class: "dc-miss", text: "✘" }));
      })))));
  }
  return h("section", { class: "dc-tiebreak" }, parts);
}
