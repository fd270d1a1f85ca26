// Decrypto's tie-break: guessing the opponents' keywords, then judging (DC-25).
import { _, h, interpolate, ngettext } from "../dom.js";
import { DIGITS, OTHER, CLUE_MAX, cur, myTeam, send, stamp, teamName, teamTag } from "./common.js";

// `play`: phase, seat, stamp, tiebreak and each team's keywords (`play.keywords`).
export function tiebreakSlot(play) {
  const local = cur.local;
  const tb = play.tiebreak;
  if (!tb) return null;
  const team = myTeam(play);
  // The status line above already says the tie-break is about the opponents' keywords.
  const title = { tiebreak: _("Tie-break"), judge: _("Judging: did they find your keywords?") }[play.phase]
    || _("Tie-break results");
  const parts = [h("h3", { text: title })];
  if (play.phase === "tiebreak" && team) {
    if (tb.submitted[team]) {
      parts.push(h("p", { text: _("Your team's guesses are in. Waiting for the other team.") }),
        h("ol", {}, (tb.guesses[team] || []).map((w) => h("li", { text: w || "—" }))));
    } else {
      parts.push(h("form", { id: "dc-tb-form", class: "dc-tb-form", onsubmit: (event) => {
        event.preventDefault();
        const words = DIGITS.map((d) => document.getElementById(`dc-tb-${d}`).value);
        send({ action: "tiebreak_guess", ...stamp(cur.play), words });
      } }, h("div", { class: "dc-tb-grid" }, DIGITS.map((d) => {
        // The opponents' clues for this position, right by its box: all a guess goes on.
        const clues = (((play.sheets || {})[OTHER[team]] || {}).by_position || {})[String(d)] || [];
        return h("div", { class: "dc-clue-field dc-tb-field" },
          h("label", { for: `dc-tb-${d}` }, h("span", { class: "dc-digit", text: String(d) }),
            h("span", { class: "visually-hidden", text: interpolate(_("%(team)s's keyword %(n)s"), { team: teamName(OTHER[team]), n: d }) }),
            h("span", { class: "dc-tb-clues" }, clues.length ? clues.map((e) => e.clue).join(" · ") : h("em", { class: "muted", text: _("(no clue)") }))),
          h("input", { id: `dc-tb-${d}`, maxlength: CLUE_MAX, autocomplete: "off", value: local.words[d - 1] || null,
            oninput: (event) => { local.words[d - 1] = event.target.value; } }));
      })),
      h("button", { type: "submit", class: "primary dc-wide", id: "dc-tb-submit" }, _("Send our guesses")),
      h("p", { class: "hint dc-tb-task", text: _("Each box is one of their keywords: their clues for it are above the box. One member sends the team's four guesses; blanks are allowed.") })));
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
      h("p", { class: "hint dc-judge-task", text: _("Above: each of your keywords and the other team's guess for it. Exact matches count by themselves; tick “accept” for a guess that means the same (a plural, a synonym), then confirm.") })));
    }
  }
  if (tb.scores) {
    // At the end every guess, match and acceptance is public: show how each team scored.
    parts.push(...["white", "black"].map((t) => h("div", { class: "dc-tb-result", dataset: { team: t } },
      h("h4", {}, teamTag(t), " ", interpolate(ngettext("%(n)s keyword guessed", "%(n)s keywords guessed", tb.scores[t]), { n: tb.scores[t] })),
      h("ol", {}, (tb.guesses[t] || []).map((word, i) => {
        const hit = (tb.matches[t] || [])[i];
        const accepted = (tb.accepted[OTHER[t]] || []).includes(i + 1);
        return h("li", {}, h("strong", { text: word || "—" }), " → ", h("span", { class: "dc-word", text: (play.keywords[OTHER[t]] || [])[i] || "" }), " ",
          hit ? h("span", { class: "dc-ok", text: "✔" }) : accepted ? h("span", { class: "dc-ok", text: `✔ ${_("accepted")}` }) : h("span", { class: "dc-miss", text: "✘" }));
      })))));
  }
  return h("section", { class: "dc-tiebreak" }, parts);
}
