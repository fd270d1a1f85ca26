// Decrypto's head (game, round, tokens), whose move it is, and the last reveal (DC-12).
import { _, h, interpolate } from "../dom.js";
import { OTHER, TASKS, fmtCode, isInterceptorMode, nameOf, seatColour, teamName, teamTag } from "./common.js";

export const REASONS = {
  two_interceptions: _("two interception tokens"),
  two_miscommunications: _("the other team misread two of its own codes"),
  points: _("more points after the tie-break"),
  keywords: _("more keywords guessed"),
  shared_victory: _("the keyword guesses are tied too"),
  interceptor_won: _("the Interceptor intercepted twice"),
  team_held_out: _("the team held out for five rounds"),
};

function roleName(role) {
  return { encryptor: _("Encryptor this round"), member: _("team member"), decipherer: _("decipherer"),
    interceptor: _("the Interceptor"), spectator: _("spectator") }[role] || role;
}

// A team's tray: two chip slots per kind, the won ones filled (a screen reader reads the count).
function tray(kind, n, title, said) {
  return h("span", { class: `dc-tokens-${kind}`, title },
    [0, 1].map((i) => h("span", { class: `dc-chip${i < n ? " dc-chip-won" : ""}`, "aria-hidden": "true" })),
    h("span", { class: "visually-hidden", text: said }));
}

function tokens(teams, team) {
  const t = teams[team];
  const parts = [tray("int", t.interceptions, _("Interception tokens"), interpolate(_("Interceptions %(n)s/2"), { n: t.interceptions }))];
  if (!isInterceptorMode()) {
    parts.push(tray("mis", t.miscommunications, _("Miscommunication tokens"), interpolate(_("Miscommunications %(n)s/2"), { n: t.miscommunications })));
  }
  return h("li", { class: `dc-score dc-${seatColour(team)}`, dataset: { team } }, teamTag(team), ...parts);
}

// What ✔ and ✘ count, in words beside the counters on every screen (a sighted player
// cannot read the counters' hidden text); screen readers have it there already.
function tokenLegend() {
  const item = (kind, pip, words) => h("span", { class: `dc-tokens-${kind}` }, h("span", { class: "dc-pip", text: pip }), words);
  return h("p", { class: "dc-token-legend", "aria-hidden": "true" }, item("int", "✔", _("Interception tokens")),
    isInterceptorMode() ? null : item("mis", "✘", _("Miscommunication tokens")));
}

// `play`: number, round, last_round, phase, seat and each team's tokens.
export function head(play) {
  const seat = play.seat;
  const you = seat.is_interceptor ? _("You are the Interceptor") : seat.team ? interpolate(_("You: %(team)s, %(role)s"), { team: teamName(seat.team), role: roleName(seat.role) }) : _("You are watching");
  return [
    h("div", { class: "dc-head" },
      h("h2", { text: interpolate(_("Decrypto · game %(n)s"), { n: play.number }) }),
      h("span", { class: "dc-round", text: play.phase === "over" ? _("Game over")
        : interpolate(_("Round %(r)s of %(n)s"), { r: play.round, n: play.last_round }) }),
      isInterceptorMode() ? h("span", { class: "dc-mode", text: _("Interceptor variant") }) : null),
    h("p", { class: "dc-you", text: you }),
    h("ul", { class: "dc-scores", "aria-label": _("Tokens") }, ["white", "black"].filter((t) => !isInterceptorMode() || t === "black").map((t) => tokens(play.teams, t))),
    tokenLegend(),
  ];
}

// `play`: phase, round, seat, outcome, encryptor.submitted, current.team and current.guess (task, locked, can_edit).
export function statusText(play) {
  const seat = play.seat;
  if (play.phase === "over") {
    const winners = play.outcome.winners;
    const who = winners.length === 2 ? _("Both teams win") : interpolate(_("%(team)s wins"), { team: teamName(winners[0]) });
    return `${who}: ${REASONS[play.outcome.reason] || play.outcome.reason}.`;
  }
  if (play.phase === "clues") {
    if (seat.is_encryptor) return play.encryptor.submitted ? _("Your clues are in. Waiting for the other Encryptor.") : _("You are the Encryptor: write your clues.");
    return _("The Encryptors are writing their clues.");
  }
  if (play.phase === "guess") {
    const target = teamName(play.current.team);
    const guess = play.current.guess;
    if (!guess) {
      if (seat.team && play.round === 1) return interpolate(_("%(team)s deciphers its code. No interception in round 1."), { team: target });
      return interpolate(_("Guessing %(team)s's code."), { team: target });
    }
    if (guess.locked) return _("Your team locked its guess. Waiting for the others.");
    if (!guess.can_edit) return _("Your team is guessing your code: you watch and cannot take part.");
    if (guess.task === "decipher") return _("Decipher your Encryptor's code: agree on three digits and lock them.");
    // The lone Interceptor agrees with nobody, and "the team" is not a name to capitalise.
    if (seat.is_interceptor) return _("Intercept: guess the team's code, one digit per clue, and lock it.");
    return interpolate(_("Intercept %(team)s's code: agree on three digits and lock them."), { team: target });
  }
  if (play.phase === "tiebreak") return _("Tie! Each team guesses the opponents' four keywords.");
  return _("Each team judges the guesses of its own keywords.");
}

function waitingFor(play) {
  if (!play.to_act.length) return null;
  return h("ul", { class: "dc-to-act", "aria-label": _("Waiting for") }, play.to_act.map((task) =>
    h("li", { dataset: { team: task.team, task: task.task } }, teamTag(task.team), " ",
      h("span", { text: `${TASKS[task.task] || task.task}: ${task.players.map(nameOf).join(", ")}` }))));
}

// `play`: what statusText reads, and to_act. The countdown ticks by itself (ui.js).
export function status(play) {
  const mine = play.seat.tasks.length > 0;
  return h("div", { class: `dc-status${mine ? " dc-mine" : ""}`, role: "status" },
    h("p", { class: "dc-status-text" }, mine ? h("strong", { class: "dc-your-turn", text: `● ${_("Your turn")} ` }) : null, statusText(play)),
    h("span", { id: "dc-countdown", class: "dc-countdown", "aria-live": "off", hidden: true, dataset: { countdown: "decrypto" } }),
    waitingFor(play));
}

function reveal(entry, fresh) {
  const opponents = OTHER[entry.team];
  const mark = (ok) => h("span", { class: ok ? "dc-ok" : "dc-miss", text: ok ? ` ✔ ${_("right")}` : ` ✘ ${_("wrong")}` });
  const steps = [
    h("li", { class: "dc-step dc-step-intercept" }, entry.interception
      ? [interpolate(_("%(team)s intercepts: "), { team: teamName(opponents) }), h("strong", { class: "dc-code-text", text: fmtCode(entry.interception) }), mark(entry.intercepted)]
      : h("span", { class: "muted", text: _("No interception in round 1.") })),
    h("li", { class: "dc-step dc-step-decipher" }, interpolate(_("%(team)s deciphers: "), { team: teamName(entry.team) }),
      h("strong", { class: "dc-code-text", text: fmtCode(entry.decipher) }), mark(entry.deciphered)),
    h("li", { class: "dc-step dc-step-code" }, _("The code was "), h("strong", { class: "dc-code-text", text: fmtCode(entry.code) })),
  ];
  const tokenText = entry.tokens.map((t) => interpolate(t.kind === "interception" ? _("%(team)s gets an interception token") : _("%(team)s gets a miscommunication token"), { team: teamName(t.team) }));
  return h("article", { class: `dc-reveal dc-${seatColour(entry.team)}${fresh ? " dc-fresh" : ""}`, dataset: { team: entry.team, round: entry.round } },
    h("h3", {}, teamTag(entry.team), " ", interpolate(_("code, round %(r)s"), { r: entry.round })),
    h("ol", { class: "dc-clue-list" }, entry.clues.map((clue, i) => h("li", {},
      h("span", { class: "dc-digit", text: String(entry.code[i]) }), " ", clue ? h("span", { class: "dc-clue", text: clue }) : h("em", { class: "muted", text: _("(no clue)") })))),
    h("ol", { class: "dc-steps" }, steps),
    h("p", { class: "dc-token-news", text: tokenText.length ? tokenText.join(" · ") : _("No token.") }));
}

// One line for a folded round: each code and whether its team read it right.
function roundSummary(entries) {
  return entries.map((e) => `${teamName(e.team)} ${fmtCode(e.code)} ${e.deciphered ? "✔" : "✘"}${e.intercepted ? " · " + _("intercepted") : ""}`).join(" — ");
}

// `history`: every reveal so far; `fresh`: the entry just added (animated), if any. One
// fold per round, newest first, the past ones closed so the page stays short; the latest
// open unless `busy` (this seat has a task now, the sheet under it is what it needs).
export function reveals(history, fresh, busy = false) {
  if (!history.length) return null;
  const rounds = [...new Set(history.map((e) => e.round))].sort((a, b) => b - a);
  return h("section", { class: "dc-reveals", "aria-label": _("Last reveal") }, rounds.map((r, i) => {
    const entries = history.filter((e) => e.round === r);
    return h("details", { class: "dc-round-fold", id: `dc-round-${r}`, open: i === 0 && !busy ? true : null },
      h("summary", {}, h("strong", { text: interpolate(_("Round %(r)s"), { r }) }), " ",
        h("span", { class: "dc-round-summary", text: roundSummary(entries) })),
      h("div", { class: "dc-round-body" }, entries.map((entry) => reveal(entry, entry === fresh))));
  }));
}
