// Codenames' shared words and the rules of whose move it is, for every part of its screen.
import { _, interpolate, ngettext, TEAM_NAMES, TEAM_SYMBOLS } from "../dom.js";

export const SYMBOL = { ...TEAM_SYMBOLS, bystander: "—", assassin: "✖" };
export const IDENTITY = { red: _("Red agent"), blue: _("Blue agent"), bystander: _("Bystander"), assassin: _("Assassin") };
export const TEAM = TEAM_NAMES;
// CN-33: the rulebook's ratings of a co-operative win, by the score.
const RATINGS = {
  8: _("That's… hard to believe."), 7: _("Mission impossible."), 6: _("Wow!"),
  5: _("You'll get a call from MI6."), 4: _("Top-secret clearance."), 3: _("Your watches are synchronised."),
  2: _("OK. But you can do better."), 1: _("Well, a win is a win, right?"),
};

// Latest state, for event handlers: a part that was not rebuilt never acts on an old screen.
export const cur = { play: null, youId: null, send: null };

export function seatOf(state) {
  const you = state.you;
  return you ? { team: you.team, role: you.role } : { team: "", role: "spectator" };
}

export function canGuess(play, seat) {
  return play.phase === "guess" && seat.role === "operative" && (play.mode === "three" || seat.team === play.team);
}

export function coopSpymaster(play, seat) {
  return play.mode === "coop" && seat.role === "spymaster" && seat.team === play.rules.coop_team;
}

export function myTurnToAct(play, seat) {
  if (!play || play.phase === "over") return false;
  if (play.phase === "clue") return seat.role === "spymaster" && seat.team === play.team;
  if (play.phase === "opponent") return coopSpymaster(play, seat);
  return canGuess(play, seat);
}

export function numberText(n) {
  return n === null ? "∞" : String(n);
}

function guessesText(play) {
  if (play.guesses_left === null || play.guesses_left === undefined) {
    return play.guesses_made ? _("Keep guessing, or stop") : _("Guess as many as you can");
  }
  const n = play.guesses_left;
  const text = interpolate(ngettext("%(n)s more guess", "%(n)s more guesses", n), { n });
  return play.guesses_made ? interpolate(_("%(text)s, or stop"), { text }) : text;
}

export function statusText(play, seat) {
  if (play.phase === "over") {
    if (play.mode === "coop") {
      return play.winner ? interpolate(_("You won! Score %(score)s: %(rating)s"), { score: play.score, rating: RATINGS[play.score] || play.rating })
        : _("The mission failed.");
    }
    const why = play.reason === "assassin" ? _("the other team touched the assassin") : _("all their agents were found");
    return interpolate(_("%(team)s wins: %(why)s."), { team: TEAM[play.winner], why });
  }
  const team = TEAM[play.team];
  if (play.phase === "opponent") {
    return coopSpymaster(play, seat) ? _("The opponent's turn: you choose for it.")
      : _("The opponent's turn: your spymaster chooses which of its agents it covers.");
  }
  if (play.phase === "clue") {
    const mine = seat.role === "spymaster" && seat.team === play.team;
    if (play.penalty_owed === seat.team && seat.role === "spymaster" && mine) {
      return _("Your turn to give a clue. You may first cover one of your agents (penalty).");
    }
    return mine ? _("Your turn: give a clue.") : interpolate(_("%(team)s spymaster is thinking of a clue."), { team });
  }
  let who;
  if (canGuess(play, seat)) {
    who = play.mode === "three" ? interpolate(_("You are guessing for %(team)s"), { team }) : _("Your team is guessing");
  } else {
    who = interpolate(_("%(team)s operatives are guessing"), { team });
  }
  return `${who}: ${guessesText(play)}.`;
}

// CN-2's seats in a word, for the room bar's seat label: "Spymaster" or "Operative".
export function roleWord(role) {
  return { spymaster: _("Spymaster"), operative: _("Operative") }[role] || null;
}
