// Decrypto's words for the room bar's seat label: "○ White · Encryptor" during a round.
import { _, TEAM_NAMES, TEAM_SYMBOLS } from "../dom.js";

const ROLE_WORDS = { encryptor: _("Encryptor"), member: _("Guesser"), decipherer: _("Guesser"), interceptor: _("Interceptor") };

// The team is the room seat's colour (in the Interceptor variant the engine's teams are
// shown in their seats' colours); the role is this round's, or "Player" between games.
export function seatLabel(state) {
  const you = state.you;
  const play = state.play;
  const seat = play && play.seat;
  const team = you && TEAM_NAMES[you.team] && you.role !== "spectator" ? you.team : null;
  if (!team || (seat && !seat.team)) return null;
  const role = seat && play.phase !== "over" ? ROLE_WORDS[seat.role] : null;
  return { team, text: `${TEAM_SYMBOLS[team]} ${TEAM_NAMES[team]} · ${role || _("Player")}` };
}
