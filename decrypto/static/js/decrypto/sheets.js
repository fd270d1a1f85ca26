// Decrypto's papers: keywords, the notes sheets, private notes (DC-30..DC-32) and the
// order of Encryptors (DC-5).
import { _, h, interpolate } from "../dom.js";
import { DIGITS, OTHER, cur, fmtCode, isInterceptorMode, myTeam, nameOf, send, seatColour, teamName, teamTag } from "./common.js";

const NOTE_DELAY = 800;
const noteTimers = {};

export function keywordsSlot({ interceptor, over }) {
  // The team's own keywords are the headings of its sheet (shown once, with their clues).
  if (interceptor && !over) {
    return h("p", { class: "hint", text: _("You have no keywords: listen to the team's clues and intercept its codes.") });
  }
  return null;
}

function noteBox(position) {
  const id = `dc-note-${position}`;
  const save = () => {
    clearTimeout(noteTimers[position]);
    const text = cur.local.notes[position];
    const team = myTeam(cur.play);
    if (text === undefined || !team) return;
    if (text !== cur.play.teams[team].notes[position - 1]) send({ action: "set_note", position, text });
    delete cur.local.notes[position];
  };
  return h("textarea", { id, class: "dc-note", rows: 1, maxlength: 200, dataset: { position },
    "aria-label": interpolate(_("Your team's private note on position %(n)s"), { n: position }), placeholder: _("Private note…"),
    oninput: (event) => {
      cur.local.notes[position] = event.target.value;
      clearTimeout(noteTimers[position]);
      noteTimers[position] = setTimeout(save, NOTE_DELAY);
    },
    onblur: save });
}

// A sheet's clue carries the length of its longest word (--w): a TV shrinks a word too long
// for its column rather than break it (decrypto-table.css). Set through the CSSOM: the
// page's CSP allows no style attribute.
function clueSpan(clue) {
  const span = h("span", { class: "dc-clue", text: clue });
  span.style.setProperty("--w", String(Math.max(1, ...clue.split(/\s+/).map((word) => word.length))));
  return span;
}

// `play`: phase, seat, sheets and each team's keywords (the notes are written in by patchNotes).
function sheet(play, team) {
  const data = play.sheets[team];
  const words = play.keywords[team];
  const opponents = !words && myTeam(play) === OTHER[team] && !play.seat.is_spectator;
  const columns = DIGITS.map((d) => h("div", { class: "dc-col", dataset: { position: d } },
    h("h4", {}, h("span", { class: "dc-digit", text: String(d) }), words ? h("span", { class: "dc-word", text: words[d - 1] }) : null),
    h("ul", { class: "dc-col-clues" }, data.by_position[String(d)].map((e) => h("li", {},
      h("span", { class: "dc-round-tag", text: interpolate(_("R%(n)s"), { n: e.round }) }), " ", clueSpan(e.clue)))),
    opponents ? noteBox(d) : null));
  const title = words && team === myTeam(play) && play.phase !== "over" ? _("Our keywords and clues") : interpolate(_("%(team)s's sheet"), { team: teamName(team) });
  return h("section", { class: `dc-sheet dc-${seatColour(team)} ${words ? "dc-sheet-own" : "dc-sheet-opp"}`, dataset: { team } },
    h("h3", {}, teamTag(team), " ", title),
    h("div", { class: "dc-cols" }, columns),
    data.rows.length ? h("details", { class: "dc-rows" }, h("summary", { text: _("Round by round") }),
      h("table", {}, h("thead", {}, h("tr", {}, [_("Round"), _("Clues"), _("Guess"), _("Interception"), _("Code")].map((t) => h("th", { text: t })))),
        h("tbody", {}, data.rows.map((r) => h("tr", {}, h("td", { text: String(r.round) }), h("td", { text: r.clues.map((c) => c || "—").join(" / ") }),
          h("td", { text: fmtCode(r.guess) }), h("td", { text: fmtCode(r.interception) }), h("td", { text: fmtCode(r.code) })))))) : null);
}

// `play.apart`: the sheet drawn right under the task instead (taskSheetSlot), if any.
export function sheetsSlot(play) {
  // In the Interceptor variant only the team of two has codes: its sheet is the only one.
  const teams = (isInterceptorMode() ? ["white"] : ["white", "black"]).filter((t) => t !== play.apart);
  const mine = myTeam(play);
  teams.sort((a, b) => (a === mine ? -1 : b === mine ? 1 : 0));
  return teams.length ? h("div", { class: "dc-sheets" }, teams.map((t) => sheet(play, t))) : null;
}

// The one sheet the task at hand needs, right under it: the opponents' clues by keyword
// position while intercepting or in the tie-break, the team's own while deciphering.
export function taskSheetSlot(play) {
  if (!play.apart) return null;
  return h("div", { class: "dc-sheets dc-task-sheet" }, sheet(play, play.apart));
}

// On a TV the sheets' columns never scroll: a column with more clues than room shows its
// newest, the oldest left out (top-aligned, a CSS clip would cut the newest instead).
export function fitSheets(box) {
  for (const list of box.querySelectorAll(".dc-col-clues")) {
    const items = [...list.children];
    for (const item of items) item.hidden = false;
    for (const item of items.slice(0, -1)) {
      if (list.scrollHeight <= list.clientHeight + 1) break;
      item.hidden = true;
    }
  }
}

export function patchNotes(play) {
  const team = myTeam(play);
  if (!team) return;
  DIGITS.forEach((d) => {
    const box = document.getElementById(`dc-note-${d}`);
    if (!box || document.activeElement === box) return;
    // A note still waiting to be saved wins over the server's older copy.
    const value = cur.local.notes[d] !== undefined ? cur.local.notes[d] : play.teams[team].notes[d - 1];
    if (box.value !== value) box.value = value;
  });
}

// `order`: this seat's team's players; `next`: its next Encryptor; `shown`: for a team member.
export function orderSlot({ order, next, shown }) {
  if (!shown) return null;
  return h("details", { class: "dc-order" }, h("summary", { text: _("Encryptor order") }),
    h("p", { class: "hint", text: interpolate(_("Next Encryptor: %(name)s. A new order applies from the next round."), { name: nameOf(next) }) }),
    h("ol", {}, order.map((id, i) => h("li", {}, h("span", { text: nameOf(id) }),
      i > 0 ? h("button", { type: "button", class: "dc-up", "aria-label": interpolate(_("Move %(name)s up"), { name: nameOf(id) }), onclick: () => {
        const moved = [...order];
        [moved[i - 1], moved[i]] = [moved[i], moved[i - 1]];
        send({ action: "set_order", order: moved });
      } }, "↑") : null))));
}
