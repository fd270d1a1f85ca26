// Decrypto's shared words and the page's current state, for every part of its screen.
import { _, h, TEAM_NAMES, TEAM_SYMBOLS } from "../dom.js";

export const OTHER = { white: "black", black: "white" };
export const DIGITS = [1, 2, 3, 4];
export const CLUE_MAX = 60;

export const TASKS = {
  clues: _("writing clues"),
  decipher: _("deciphering"),
  intercept: _("intercepting"),
  guess_keywords: _("guessing keywords"),
  judge: _("judging"),
};

// Latest state: event handlers read it, so a part that was not rebuilt never acts on an
// old screen. `look`: how teams are shown (the variant, each side's colour, names), which
// every part's data includes. `local`: what this browser is typing, kept until the
// server has it (reset each round and phase).
export const cur = {
  state: null,
  play: null,
  send: null,
  look: { mode: "standard", colours: {}, names: {} },
  local: { at: null, clues: ["", "", ""], cluesDirty: false, notes: {}, guess: null, words: ["", "", "", ""], accept: new Set() },
};

export const send = (message) => cur.send(message);
export const fmtCode = (code) => (code ? code.join(".") : "—");
export const myTeam = (play) => play.seat.team;
export const isInterceptorMode = () => cur.look.mode === "interceptor";
export const nameOf = (id) => cur.look.names[id] || "?";
export const stamp = (play) => ({ round: play.stamp.round, phase: play.stamp.phase });

export function teamName(team) {
  if (isInterceptorMode()) return team === "white" ? _("The team") : _("Interceptor");
  return TEAM_NAMES[team];
}

// In the Interceptor variant the engine's "white" is the team of two wherever it sits in
// the room: each side shows in the colour and symbol of the seats its players hold.
export function lookOf(play, state) {
  const colours = {};
  for (const team of ["white", "black"]) {
    colours[team] = team;
    if (play.mode === "interceptor") {
      const first = play.teams[team].players[0];
      const player = state.players.find((p) => p.id === first);
      if (player && (player.team === "white" || player.team === "black")) colours[team] = player.team;
    }
  }
  return { mode: play.mode, colours, names: Object.fromEntries(state.players.map((p) => [p.id, p.name])) };
}

export const seatColour = (team) => cur.look.colours[team] || team;

export function teamTag(team, extra = "") {
  const colour = seatColour(team);
  return h("span", { class: `dc-team-tag dc-${colour}${extra}` },
    h("span", { class: "dc-sym", "aria-hidden": "true", text: TEAM_SYMBOLS[colour] }), h("span", { class: "dc-tag-name", text: teamName(team) }));
}
