// The TV's lobby (room.js loads it on the table view only): a shared screen waiting for a
// deal shows who sits where, large, beside the big QR code (the page's own); the game's
// own lobby is a phone's, made of buttons and forms.
import { _, h, TEAM_NAMES, TEAM_SYMBOLS } from "./dom.js";

const GAME_TITLES = JSON.parse(document.getElementById("game-titles").textContent);

function tvPerson(p) {
  return h("li", { class: p.bot ? "tv-person bot" : p.connected ? "tv-person" : "tv-person away" },
    p.bot ? h("span", { class: "bot-mark", "aria-hidden": "true", text: "⚙" }) : null,
    h("span", { class: "name", text: p.name }));
}

// The lobby's drawing function, with the room's words for the roles.
export const tvLobby = (ROLE_LABELS) => ({ game, seating, players }) => {
  const single = seating.roles.length === 1;
  const waiting = players.filter((p) => p.role === "spectator" && !p.watching);
  return h("section", { class: "tv-lobby", "aria-label": _("Players and seats") },
    h("h2", { class: "tv-title", text: GAME_TITLES[game] || "" }),
    h("div", { class: "tv-teams" }, seating.teams.map((team) => {
      const members = players.filter((p) => p.team === team && p.role !== "spectator");
      return h("section", { class: `tv-team team-${team}`, dataset: { team } },
        h("h3", {}, h("span", { "aria-hidden": "true", text: TEAM_SYMBOLS[team] || "" }), " ", TEAM_NAMES[team] || team),
        members.length ? seating.roles.map((role) => {
          const holders = members.filter((p) => p.role === role);
          if (!holders.length) return null;
          return h("div", { class: "tv-role" }, single ? null : h("h4", { text: ROLE_LABELS[role] || role }),
            h("ul", { class: "tv-people" }, holders.map(tvPerson)));
        }) : h("p", { class: "tv-empty", text: _("Nobody yet") }));
    })),
    waiting.length ? h("div", { class: "tv-waiting" }, h("h3", { text: _("Not seated yet") }),
      h("ul", { class: "tv-people" }, waiting.map(tvPerson))) : null);
};
