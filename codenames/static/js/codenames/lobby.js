// Codenames before and around the game: dealing, house rules, the spymaster's second
// device and the room's tally.
import { _, h, interpolate, teamPicker } from "../dom.js";
import { scoreLine, houseRules as houseRulesPanel, checkField, secondsInput } from "../ui.js";
import { TEAM, cur } from "./common.js";

export const boardOf = (state) => (state.scoreboard && state.scoreboard.codenames) || {};

export function scoreboard(board) {
  return scoreLine(board, ["red", "blue"], [
    board.coop_best ? interpolate(_("Best co-operative score: %(score)s"), { score: board.coop_best }) : null,
  ], "scoreboard");
}

// `you`: role, device and device link; `slug`: the room.
let linkAsked = false;
export function deviceLink({ you, slug }) {
  const send = cur.send;
  if (!you || you.role !== "spymaster" || you.device) return null;
  if (!you.device_link) {
    return h("section", { class: "device-link" },
      h("button", { type: "button", id: "make-device-link", onclick: () => { linkAsked = true; send({ action: "device_link" }); } },
        _("Open the key on my phone")));
  }
  const url = new URL(you.device_link, location.href).href;
  // Asked for just now: the QR code shows at once, there to scan.
  const open = linkAsked;
  linkAsked = false;
  return h("details", { class: "device-link", open: open ? true : null },
    h("summary", { text: _("Key on your phone") }),
    h("p", { class: "hint", text: _("Scan with your phone. This link is yours alone: it shows the key.") }),
    h("img", { src: `/r/${slug}/device.svg?v=${encodeURIComponent(you.device_link.slice(-8))}`, alt: _("QR code of your key link"), width: 200, height: 200 }),
    h("input", { readonly: true, value: url, "aria-label": _("Your key link"), id: "device-link-url" }),
    h("button", { type: "button", onclick: () => {
      if (confirm(_("Make a new link? The old one stops working."))) send({ action: "device_link", regenerate: true });
    } }, _("New link (revoke the old one)")));
}

export function rulesText(rules) {
  return [
    rules.multi_word_clues ? _("Multi-word clues allowed") : _("One-word clues"),
    rules.timer ? interpolate(_("Timer: %(clue)s s for clues, %(guess)s s for guessing"), { clue: rules.clue_seconds, guess: rules.guess_seconds })
      : _("No timer"),
  ].join(" · ");
}

// `rules`: the room's house rules; `timers`: their ranges (the server's); `editable`: a seated player's.
export function houseRules({ rules, timers, editable }) {
  const intro = [h("p", { class: "rules-summary", text: rulesText(rules) }),
    rules.notes ? h("p", { class: "house-notes", text: rules.notes }) : null].filter(Boolean);
  if (!editable) return houseRulesPanel({ intro });
  const multi = h("input", { type: "checkbox", id: "hr-multi", checked: rules.multi_word_clues ? true : null });
  const timer = h("input", { type: "checkbox", id: "hr-timer", checked: rules.timer ? true : null });
  const clue = secondsInput("hr-clue", timers.clue_seconds, rules.clue_seconds);
  const guess = secondsInput("hr-guess", timers.guess_seconds, rules.guess_seconds);
  const notes = h("textarea", { id: "hr-notes", maxlength: 500, rows: 2,
    placeholder: _("Your group's calls on acronyms, rhymes, homonyms…") });
  notes.value = rules.notes || "";
  return houseRulesPanel({ intro, saveId: "hr-save",
    fields: [checkField(multi, _("Allow clues of several words (New York)")), checkField(timer, _("Sand timer")),
      h("div", { class: "row timers" }, h("label", {}, _("Clue (s)"), clue), h("label", {}, _("Guessing (s)"), guess)),
      h("label", { for: "hr-notes" }, _("House notes")), notes],
    save: () => cur.send({ action: "house_rules", multi_word_clues: multi.checked, timer: timer.checked,
      clue_seconds: Number(clue.value), guess_seconds: Number(guess.value), notes: notes.value }) });
}

// `players`: the seated ones; `deal`: what a deal would be now (the server's word).
export function lobbyPanel({ players, you, teams, deal, rules }) {
  const send = cur.send;
  let hint;
  if (deal.mode === "three") hint = _("Three players: two spymasters and one operative who guesses for both teams.");
  else if (deal.mode === "coop") hint = _("Co-operative: your team against the clock of a simulated opponent.");
  else if (deal.ready) hint = null;  // the button says what it deals: nothing left to ask
  else if (players.length < 4) hint = _("Four or more players play in two teams. With two or three, seat one team (co-operative) or two spymasters and one operative.");
  else hint = _("Each team needs a spymaster and at least one operative.");
  const label = { three: _("Deal a three-player game"), coop: _("Deal a co-operative game"), standard: _("Deal a new game") }[deal.mode];
  // The first player of a team without a spymaster is offered the role in one tap.
  const offer = you && you.role === "operative" && !players.some((p) => p.team === you.team && p.role === "spymaster")
    ? h("div", { class: "seat-offer" },
      h("p", { text: interpolate(_("%(team)s has no spymaster yet. Will you give the clues?"), { team: TEAM[you.team] }) }),
      h("button", { type: "button", id: "take-spymaster", onclick: () => send({ action: "sit", team: you.team, role: "spymaster" }) },
        interpolate(_("Be %(team)s's spymaster"), { team: TEAM[you.team] })))
    : null;
  const unseated = !you || you.role === "spectator";
  return h("div", { class: "deal" },
    offer,
    unseated && you ? teamPicker(teams, "operative", send) : null,
    hint ? h("p", { class: "hint", id: "deal-hint", text: hint }) : null,
    // Disabled until the seats make a game, the hint saying what is missing (the server
    // would refuse the deal anyway).
    you && you.role !== "spectator"
      ? h("button", { type: "button", class: "primary", id: "deal", disabled: deal.ready ? null : true,
        "aria-describedby": hint ? "deal-hint" : null, onclick: () => send({ action: "start_game" }) }, label)
      : h("p", { class: "muted", text: _("Take a seat to deal a game.") }),
    houseRules(rules));
}
