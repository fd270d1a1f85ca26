// Decrypto's replay frame: both teams' keywords, every code revealed so far on each
// team's sheet, this round's codes and clues, the tokens.
import { h, TEAM_SYMBOLS } from "../dom.js";

const code = (digits) => (digits ? digits.join("-") : "–");

function sheet(board, frame, team) {
  const L = board.labels;
  const rows = board.history.slice(0, frame.shown).filter((row) => row[1] === team);
  const [intercepts, misses] = frame.tokens[team];
  const turn = frame.turns[team];
  return h("section", { class: `replay-team side-${team}` },
    h("h2", {}, `${TEAM_SYMBOLS[team]} ${L.team[team]}`),
    h("ol", { class: "replay-keywords", "aria-label": L.keywords }, ...board.keywords[team].map((word) => h("li", {}, word))),
    h("p", { class: "replay-tokens" }, `${L.interceptions} ${intercepts} · ${L.miscommunications} ${misses}`),
    turn ? h("p", { class: "replay-current" },
      `${L.round} ${frame.round}: ${board.names[turn.encryptor] || ""} — ${L.code} ${code(turn.code)}`,
      turn.clues.length ? ` · ${turn.clues.join(" · ")}` : "") : "",
    rows.length ? h("table", { class: "replay-sheet" },
      h("thead", {}, h("tr", {}, ...[L.round, L.clues, L.code, L.intercepted, L.deciphered].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, ...rows.map(([round, , encryptor, clues, interception, decipher, real]) => h("tr", {},
        h("td", {}, String(round)),
        h("td", {}, `${clues.join(" · ")} (${board.names[encryptor] || ""})`),
        h("td", {}, code(real)),
        h("td", { class: interception && interception.join() === real.join() ? "hit" : "" }, code(interception)),
        h("td", { class: decipher.join() === real.join() ? "" : "miss" }, code(decipher)))))) : "");
}

export function render(board, frame, root) {
  const L = board.labels;
  const head = frame.over
    ? (frame.winners.length ? frame.winners.map((t) => `${TEAM_SYMBOLS[t]} ${L.team[t]}`).join(" + ") + ` — ${L.wins}` : L.over)
    : `${L.round} ${frame.round} · ${L.phase[frame.phase] || ""}`;
  root.replaceChildren(h("p", { class: "replay-turn" }, head),
    h("div", { class: "replay-teams" }, sheet(board, frame, "white"), sheet(board, frame, "black")));
}
