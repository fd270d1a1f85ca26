// Decrypto: renders the state the server sent for this browser. The server decides what
// this seat may know (the engine's view_for); nothing here hides anything it was given.
//
// The page is a fixed column of slots. A slot is rebuilt only when the data it shows
// changes (its key), and inputs being typed in are patched, never rebuilt, so a push
// caused by someone else never steals the focus or the caret from a player typing.
import { _, h, interpolate, serverNow, turnAlert, clockText, teamPicker } from "./dom.js";

const TEAM = { white: _("White"), black: _("Black") };
const SYMBOL = { white: "○", black: "■" };
const OTHER = { white: "black", black: "white" };
const DIGITS = [1, 2, 3, 4];
const CLUE_MAX = 60;
const DRAFT_DELAY = 400;
const NOTE_DELAY = 800;
const GUESS_ECHO_WAIT = 3000;
// Top: always first. Main: what to do now. Side: the team's papers (a second column on wide screens).
const LAYOUT = { top: ["head", "status"], main: ["end", "encrypt", "guess", "tiebreak", "reveal"], side: ["keywords", "sheets", "order", "abandon"] };
const REASONS = {
  two_interceptions: _("two interception tokens"),
  two_miscommunications: _("the other team misread two of its own codes"),
  points: _("more points after the tie-break"),
  keywords: _("more keywords guessed"),
  shared_victory: _("the keyword guesses are tied too"),
  interceptor_won: _("the Interceptor intercepted twice"),
  team_held_out: _("the team held out for five rounds"),
};
const TASKS = {
  clues: _("writing clues"),
  decipher: _("deciphering"),
  intercept: _("intercepting"),
  guess_keywords: _("guessing keywords"),
  judge: _("judging"),
};

// Latest state: event handlers read it, so a slot that was not rebuilt never acts on an old screen.
const cur = { state: null, play: null, send: null, names: {} };
let cache = {};
let countdownTimer = null;
let lastHistory = null;
// What this browser is typing, kept until the server has it (keyed by game and round).
let local = { at: null, clues: ["", "", ""], cluesDirty: false, notes: {}, guess: null, words: ["", "", "", ""], accept: new Set() };
let draftTimer = null;
const noteTimers = {};

// ---- helpers ------------------------------------------------------------------------------
const fmtCode = (code) => (code ? code.join(".") : "—");
const myTeam = (play) => play.seat.team;
const isInterceptorMode = (play) => play.mode === "interceptor";
const nameOf = (id) => cur.names[id] || "?";

function teamName(play, team) {
  if (isInterceptorMode(play)) return team === "white" ? _("The team") : _("Interceptor");
  return TEAM[team];
}

// In the Interceptor variant the engine's "white" is the team of two wherever it sits in
// the room: show each side in the colour and symbol of the seats its players hold.
function seatColour(play, team) {
  if (!isInterceptorMode(play)) return team;
  const first = play.teams[team].players[0];
  const player = cur.state.players.find((p) => p.id === first);
  return player && SYMBOL[player.team] ? player.team : team;
}

function teamTag(play, team, extra = "") {
  const colour = seatColour(play, team);
  return h("span", { class: `dc-team-tag dc-${colour}${extra}` },
    h("span", { class: "dc-sym", "aria-hidden": "true", text: SYMBOL[colour] }), teamName(play, team));
}

// DC-17's "same clue" test, as the engine does it: Unicode NFC, spaces folded, case folded
// (upper then lower approximates Python's casefold: "ß" and "SS" compare equal).
const clueKey = (text) => text.normalize("NFC").split(/\s+/).filter(Boolean).join(" ").toUpperCase().toLowerCase();

// The keyword test also ignores accents ("Uber" gives away "Über"), as the engine's.
const looseKey = (text) => clueKey(text.normalize("NFKD").replace(/\p{M}/gu, ""));

export function clueProblems(clues, play, { submitting = false } = {}) {
  const team = myTeam(play);
  const keywords = new Set((play.teams[team].keywords || []).map(looseKey));
  const used = new Set();
  for (const row of play.sheets[team].rows) for (const clue of row.clues) if (clue) used.add(clueKey(clue));
  return clues.map((clue) => {
    const key = clueKey(clue);
    if (!key) return submitting ? _("Every clue needs some text.") : null;
    if ([...clue].length > CLUE_MAX) return interpolate(_("At most %(n)s characters."), { n: CLUE_MAX });
    if (keywords.has(looseKey(clue))) return _("A clue may not be one of your own keywords.");
    if (used.has(key)) return _("Your team has already used this clue in this game.");
    used.add(key);
    return null;
  });
}

function stamp(play) {
  return { round: play.stamp.round, phase: play.stamp.phase };
}

function send(message) {
  return cur.send(message);
}

function mount(container) {
  let root = container.querySelector(":scope > .dc-game");
  if (!root) {
    root = h("div", { class: "dc-game" }, Object.entries(LAYOUT).map(([part, slots]) =>
      h("div", { class: `dc-${part}` }, slots.map((slot) => h("div", { class: `dc-slot dc-slot-${slot}`, dataset: { slot } })))));
    container.replaceChildren(root);
    cache = {};
  }
  return root;
}

// Rebuilds the slot if its key changed; true when it did.
function fill(root, slot, key, build) {
  const el = root.querySelector(`[data-slot="${slot}"]`);
  if (cache[slot] === key) return false;
  cache[slot] = key;
  el.replaceChildren(...[build()].flat().filter(Boolean));
  return true;
}

// ---- head: game, round, tokens ------------------------------------------------------------
function tokens(play, team) {
  const t = play.teams[team];
  // Compact on a phone: ✔ and ✘ with the counts; the words are there for screen readers.
  const parts = [h("span", { class: "dc-tokens-int", title: _("Interception tokens") },
    h("span", { class: "dc-pip", "aria-hidden": "true", text: "✔" }),
    h("span", { "aria-hidden": "true", text: `${t.interceptions}/2` }),
    h("span", { class: "visually-hidden", text: interpolate(_("Interceptions %(n)s/2"), { n: t.interceptions }) }))];
  if (!isInterceptorMode(play)) {
    parts.push(h("span", { class: "dc-tokens-mis", title: _("Miscommunication tokens") },
      h("span", { class: "dc-pip", "aria-hidden": "true", text: "✘" }),
      h("span", { "aria-hidden": "true", text: `${t.miscommunications}/2` }),
      h("span", { class: "visually-hidden", text: interpolate(_("Miscommunications %(n)s/2"), { n: t.miscommunications }) })));
  }
  return h("li", { class: `dc-score dc-${seatColour(play, team)}`, dataset: { team } }, teamTag(play, team), ...parts);
}

function head(play) {
  const you = play.seat.is_interceptor ? _("You are the Interceptor") : play.seat.team ? interpolate(_("You: %(team)s, %(role)s"), { team: teamName(play, play.seat.team), role: roleName(play.seat.role) }) : _("You are watching");
  return [
    h("div", { class: "dc-head" },
      h("h2", { text: interpolate(_("Decrypto · game %(n)s"), { n: play.number }) }),
      h("span", { class: "dc-round", text: play.phase === "over" ? _("Game over")
        : interpolate(_("Round %(r)s of %(n)s"), { r: play.round, n: play.last_round }) }),
      isInterceptorMode(play) ? h("span", { class: "dc-mode", text: _("Interceptor variant") }) : null),
    h("p", { class: "dc-you", text: you }),
    h("ul", { class: "dc-scores", "aria-label": _("Tokens") }, ["white", "black"].filter((t) => !isInterceptorMode(play) || t === "black").map((t) => tokens(play, t))),
  ];
}

function roleName(role) {
  return { encryptor: _("Encryptor this round"), member: _("team member"), decipherer: _("decipherer"),
    interceptor: _("the Interceptor"), spectator: _("spectator") }[role] || role;
}

// ---- status: whose move, countdown --------------------------------------------------------
function statusText(play) {
  const seat = play.seat;
  const team = seat.team;
  if (play.phase === "over") {
    const winners = play.outcome.winners;
    const who = winners.length === 2 ? _("Both teams win") : interpolate(_("%(team)s wins"), { team: teamName(play, winners[0]) });
    return `${who}: ${REASONS[play.outcome.reason] || play.outcome.reason}.`;
  }
  if (play.phase === "clues") {
    if (seat.is_encryptor) return play.encryptor.submitted ? _("Your clues are in. Waiting for the other Encryptor.") : _("You are the Encryptor: write your clues.");
    return _("The Encryptors are writing their clues.");
  }
  if (play.phase === "guess") {
    const target = teamName(play, play.current.team);
    const guess = play.current.guess;
    if (!guess) {
      if (team && play.round === 1) return interpolate(_("%(team)s deciphers its code. No interception in round 1."), { team: target });
      return interpolate(_("Guessing %(team)s's code."), { team: target });
    }
    if (guess.locked) return _("Your team locked its guess. Waiting for the others.");
    if (!guess.can_edit) return _("Your team is guessing your code: you watch and cannot take part.");
    return guess.task === "decipher" ? _("Decipher your Encryptor's code: agree on three digits and lock them.")
      : interpolate(_("Intercept %(team)s's code: agree on three digits and lock them."), { team: target });
  }
  if (play.phase === "tiebreak") return _("Tie! Each team guesses the opponents' four keywords.");
  return _("Each team judges the guesses of its own keywords.");
}

function waitingFor(play) {
  if (!play.to_act.length) return null;
  return h("ul", { class: "dc-to-act", "aria-label": _("Waiting for") }, play.to_act.map((task) =>
    h("li", { dataset: { team: task.team, task: task.task } }, teamTag(play, task.team), " ",
      h("span", { text: `${TASKS[task.task] || task.task}: ${task.players.map(nameOf).join(", ")}` }))));
}

let timesUpFor = null;
function tickCountdown() {
  const el = document.getElementById("dc-countdown");
  const deadline = cur.play && cur.play.deadline;
  if (!el) return;
  if (!deadline) {
    el.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil(deadline - serverNow()));
  const text = clockText(left);
  el.hidden = false;
  // At zero the server sends the late clues as they stand within a moment: say so.
  el.textContent = text ? interpolate(_("Time left %(t)s"), { t: text }) : `⌛ ${_("Time's up!")}`;
  el.classList.toggle("urgent", left <= 10);
  if (!text && timesUpFor !== deadline) {
    timesUpFor = deadline;
    turnAlert(_("Time's up!"), { mine: Boolean(cur.play.seat.is_encryptor) });
  }
}

function status(play) {
  const mine = play.seat.tasks.length > 0;
  return h("div", { class: `dc-status${mine ? " dc-mine" : ""}`, role: "status" },
    h("p", { class: "dc-status-text" }, mine ? h("strong", { class: "dc-your-turn", text: `● ${_("Your turn")} ` }) : null, statusText(play)),
    h("span", { id: "dc-countdown", class: "dc-countdown", "aria-live": "off", hidden: true }),
    waitingFor(play));
}

// ---- the reveal (DC-12): interception, decipher, code ----------------------------------------
function reveal(play, entry, fresh) {
  const opponents = OTHER[entry.team];
  const mark = (ok) => h("span", { class: ok ? "dc-ok" : "dc-miss", text: ok ? ` ✔ ${_("right")}` : ` ✘ ${_("wrong")}` });
  const steps = [
    h("li", { class: "dc-step dc-step-intercept" }, entry.interception
      ? [interpolate(_("%(team)s intercepts: "), { team: teamName(play, opponents) }), h("strong", { class: "dc-code-text", text: fmtCode(entry.interception) }), mark(entry.intercepted)]
      : h("span", { class: "muted", text: _("No interception in round 1.") })),
    h("li", { class: "dc-step dc-step-decipher" }, interpolate(_("%(team)s deciphers: "), { team: teamName(play, entry.team) }),
      h("strong", { class: "dc-code-text", text: fmtCode(entry.decipher) }), mark(entry.deciphered)),
    h("li", { class: "dc-step dc-step-code" }, _("The code was "), h("strong", { class: "dc-code-text", text: fmtCode(entry.code) })),
  ];
  const tokenText = entry.tokens.map((t) => interpolate(t.kind === "interception" ? _("%(team)s gets an interception token") : _("%(team)s gets a miscommunication token"), { team: teamName(play, t.team) }));
  return h("article", { class: `dc-reveal dc-${seatColour(play, entry.team)}${fresh ? " dc-fresh" : ""}`, dataset: { team: entry.team, round: entry.round } },
    h("h3", {}, teamTag(play, entry.team), " ", interpolate(_("code, round %(r)s"), { r: entry.round })),
    h("ol", { class: "dc-clue-list" }, entry.clues.map((clue, i) => h("li", {},
      h("span", { class: "dc-digit", text: String(entry.code[i]) }), " ", clue ? h("span", { class: "dc-clue", text: clue }) : h("em", { class: "muted", text: _("(no clue)") })))),
    h("ol", { class: "dc-steps" }, steps),
    h("p", { class: "dc-token-news", text: tokenText.length ? tokenText.join(" · ") : _("No token.") }));
}

function reveals(play) {
  if (!play.history.length) return null;
  const latest = play.history[play.history.length - 1].round;
  const shown = play.history.filter((r) => r.round === latest);
  const grown = lastHistory !== null && play.history.length > lastHistory;
  return h("section", { class: "dc-reveals", "aria-label": _("Last reveal") },
    shown.map((entry) => reveal(play, entry, grown && entry === play.history[play.history.length - 1])));
}

// ---- the Encryptor: code and clues ------------------------------------------------------------
function scheduleDraft() {
  clearTimeout(draftTimer);
  draftTimer = setTimeout(() => {
    const play = cur.play;
    if (!play || !play.encryptor || play.encryptor.submitted) return;
    send({ action: "save_draft", ...stamp(play), clues: local.clues });
  }, DRAFT_DELAY);
}

function showProblems(problems) {
  problems.forEach((problem, i) => {
    const input = document.getElementById(`dc-clue-${i + 1}`);
    const note = document.getElementById(`dc-clue-${i + 1}-problem`);
    if (input) input.setAttribute("aria-invalid", problem ? "true" : "false");
    if (note) note.textContent = problem || "";
  });
}

function encryptPanel(play) {
  const panel = play.encryptor;
  const keywords = play.teams[myTeam(play)].keywords || [];
  const codeBox = h("div", { class: "dc-code", role: "img", "aria-label": interpolate(_("Your code: %(code)s"), { code: panel.code.join(", ") }) },
    panel.code.map((d) => h("span", { class: "dc-code-digit", text: String(d) })));
  if (panel.submitted) {
    return h("section", { class: "dc-encrypt dc-sent" }, h("h3", { text: _("Your code") }), codeBox,
      h("ol", { class: "dc-clue-list" }, panel.clues.map((clue, i) => h("li", {}, h("span", { class: "dc-digit", text: String(panel.code[i]) }), " ", h("span", { class: "dc-clue", text: clue })))));
  }
  const fields = panel.code.map((digit, i) => h("div", { class: "dc-clue-field" },
    h("label", { for: `dc-clue-${i + 1}` }, h("span", { class: "dc-digit", text: String(digit) }), " ",
      h("span", { class: "dc-hint-word", text: keywords[digit - 1] || "" })),
    h("input", { id: `dc-clue-${i + 1}`, class: "dc-clue-input", maxlength: CLUE_MAX, autocomplete: "off", autocapitalize: "none",
      enterkeyhint: i < 2 ? "next" : "send", dataset: { index: i },
      "aria-describedby": `dc-clue-${i + 1}-problem`, oninput: (event) => {
        local.clues[i] = event.target.value;
        local.cluesDirty = true;
        showProblems(clueProblems(local.clues, cur.play));
        scheduleDraft();
      } }),
    h("p", { id: `dc-clue-${i + 1}-problem`, class: "dc-problem error", role: "alert" })));
  return h("section", { class: "dc-encrypt" },
    h("div", { class: "dc-code-line" }, h("h3", { text: _("Your code") }), codeBox,
      h("p", { class: "hint", text: _("Only you see it. One clue per digit, about the keyword's meaning.") })),
    h("form", { id: "dc-clue-form", class: "dc-clue-form", onsubmit: (event) => {
      event.preventDefault();
      const problems = clueProblems(local.clues, cur.play, { submitting: true });
      showProblems(problems);
      const first = problems.findIndex(Boolean);
      if (first >= 0) {
        document.getElementById(`dc-clue-${first + 1}`).focus();
        return;
      }
      clearTimeout(draftTimer);
      send({ action: "submit_clues", ...stamp(cur.play), clues: local.clues });
    } }, fields, h("button", { type: "submit", class: "primary dc-wide", id: "dc-submit-clues" }, _("Send clues"))));
}

function patchClues(play) {
  if (!play.encryptor || play.encryptor.submitted) return;
  play.encryptor.clues.forEach((serverValue, i) => {
    const input = document.getElementById(`dc-clue-${i + 1}`);
    if (!input) return;
    // The browser's own typing wins over the echo of an older draft.
    if (!local.cluesDirty) local.clues[i] = serverValue;
    if (input.value !== local.clues[i] && document.activeElement !== input) input.value = local.clues[i];
    else if (!input.value && local.clues[i]) input.value = local.clues[i];
  });
  showProblems(clueProblems(local.clues, play));
}

// ---- guessing: the code being guessed, the team's shared draft (DC-10, DC-S2) -----------------
function guessCode() {
  return [1, 2, 3].map((i) => {
    const value = document.getElementById(`dc-guess-${i}`).value;
    return value ? Number(value) : null;
  });
}

function guessPanel(play) {
  const current = play.current;
  const guess = current.guess;
  const own = guess && guess.task === "decipher";
  const keywords = own ? play.teams[myTeam(play)].keywords || [] : [];
  const editable = guess && guess.can_edit && !guess.locked;
  const rows = current.clues.map((clue, i) => h("li", { class: "dc-guess-row" },
    h("label", { for: guess ? `dc-guess-${i + 1}` : null, class: "dc-clue" }, clue || h("em", { class: "muted", text: _("(no clue)") })),
    guess ? h("select", { id: `dc-guess-${i + 1}`, disabled: editable ? null : true, "aria-label": interpolate(_("Digit for clue %(n)s"), { n: i + 1 }),
      onchange: () => {
        const code = guessCode();
        local.guess = { code: JSON.stringify(code), at: Date.now() };
        send({ action: "edit_guess", ...stamp(cur.play), guessing_for: cur.play.current.team, code });
      } },
    h("option", { value: "", text: "–" }),
    DIGITS.map((d) => h("option", { value: String(d), text: keywords[d - 1] ? `${d} · ${keywords[d - 1]}` : String(d) }))) : null));
  const lockedTeams = Object.entries(current.locked).map(([team, done]) =>
    h("li", { dataset: { team } }, teamTag(play, team), " ", done ? _("locked") : _("thinking…")));
  return h("section", { class: `dc-current dc-${seatColour(play, current.team)}`, dataset: { team: current.team } },
    h("h3", {}, interpolate(_("%(team)s's clues"), { team: teamName(play, current.team) }),
      h("span", { class: "muted", text: ` · ${interpolate(_("Encryptor: %(name)s"), { name: nameOf(current.encryptor) })}` })),
    h("form", { class: `dc-guess${guess ? "" : " dc-readonly"}`, dataset: { task: guess ? guess.task : "watch" }, onsubmit: (event) => {
      event.preventDefault();
      const code = guessCode();
      if (code.includes(null)) {
        document.getElementById("dc-guess-problem").textContent = _("Pick a digit for every clue.");
        return;
      }
      send({ action: "lock_guess", ...stamp(cur.play), guessing_for: cur.play.current.team, code });
    } },
    h("ol", { class: "dc-guess-rows" }, rows),
    guess ? h("p", { id: "dc-guess-problem", class: "dc-problem error", role: "alert" }) : null,
    guess && guess.can_edit ? h("button", { type: "submit", class: "primary dc-wide", id: "dc-lock-guess", disabled: guess.locked ? true : null },
      guess.locked ? _("Guess locked") : play.seat.is_interceptor ? _("Lock my guess") : _("Lock our guess")) : null),
    h("ul", { class: "dc-locks" }, lockedTeams));
}

function patchGuess(play) {
  const guess = play.current && play.current.guess;
  if (!guess) return;
  // Until the server echoes this browser's last edit, an older draft arriving would undo
  // digits just picked; a teammate's edit shows once ours is in (or after a moment).
  // The slot may also have just been rebuilt (a lock elsewhere): write the best-known
  // code back either way, this browser's own pending edit first.
  const pending = local.guess;
  let code = guess.draft;
  if (pending && pending.code !== JSON.stringify(guess.draft) && Date.now() - pending.at < GUESS_ECHO_WAIT) {
    code = JSON.parse(pending.code);
  } else {
    local.guess = null;
  }
  code.forEach((digit, i) => {
    const select = document.getElementById(`dc-guess-${i + 1}`);
    if (!select || document.activeElement === select) return;
    select.value = digit === null ? "" : String(digit);
  });
}

// ---- keywords, notes sheets, private notes (DC-30..DC-32) -------------------------------------
function keywordsSlot(play) {
  // The team's own keywords are the headings of its sheet (shown once, with their clues).
  if (play.seat.is_interceptor && play.phase !== "over") {
    return h("p", { class: "hint", text: _("You have no keywords: listen to the team's clues and intercept its codes.") });
  }
  return null;
}

function noteBox(play, position) {
  const id = `dc-note-${position}`;
  const save = () => {
    clearTimeout(noteTimers[position]);
    const text = local.notes[position];
    const team = myTeam(cur.play);
    if (text === undefined || !team) return;
    if (text !== cur.play.teams[team].notes[position - 1]) send({ action: "set_note", position, text });
    delete local.notes[position];
  };
  return h("textarea", { id, class: "dc-note", rows: 1, maxlength: 200, dataset: { position },
    "aria-label": interpolate(_("Your team's private note on position %(n)s"), { n: position }), placeholder: _("Private note…"),
    oninput: (event) => {
      local.notes[position] = event.target.value;
      clearTimeout(noteTimers[position]);
      noteTimers[position] = setTimeout(save, NOTE_DELAY);
    },
    onblur: save });
}

function sheet(play, team) {
  const data = play.sheets[team];
  const words = play.teams[team].keywords;
  const opponents = !words && myTeam(play) === OTHER[team] && !play.seat.is_spectator;
  const columns = DIGITS.map((d) => h("div", { class: "dc-col", dataset: { position: d } },
    h("h4", {}, h("span", { class: "dc-digit", text: String(d) }), words ? h("span", { class: "dc-word", text: words[d - 1] }) : null),
    h("ul", { class: "dc-col-clues" }, data.by_position[String(d)].map((e) => h("li", {},
      h("span", { class: "dc-round-tag", text: interpolate(_("R%(n)s"), { n: e.round }) }), " ", h("span", { class: "dc-clue", text: e.clue })))),
    opponents ? noteBox(play, d) : null));
  const title = words && team === myTeam(play) && play.phase !== "over" ? _("Our keywords and clues") : interpolate(_("%(team)s's sheet"), { team: teamName(play, team) });
  return h("section", { class: `dc-sheet dc-${seatColour(play, team)} ${words ? "dc-sheet-own" : "dc-sheet-opp"}`, dataset: { team } },
    h("h3", {}, teamTag(play, team), " ", title),
    h("div", { class: "dc-cols" }, columns),
    data.rows.length ? h("details", { class: "dc-rows" }, h("summary", { text: _("Round by round") }),
      h("table", {}, h("thead", {}, h("tr", {}, [_("Round"), _("Clues"), _("Guess"), _("Interception"), _("Code")].map((t) => h("th", { text: t })))),
        h("tbody", {}, data.rows.map((r) => h("tr", {}, h("td", { text: String(r.round) }), h("td", { text: r.clues.map((c) => c || "—").join(" / ") }),
          h("td", { text: fmtCode(r.guess) }), h("td", { text: fmtCode(r.interception) }), h("td", { text: fmtCode(r.code) })))))) : null);
}

function sheetsSlot(play) {
  // In the Interceptor variant only the team of two has codes: its sheet is the only one.
  const teams = isInterceptorMode(play) ? ["white"] : ["white", "black"];
  const mine = myTeam(play);
  teams.sort((a, b) => (a === mine ? -1 : b === mine ? 1 : 0));
  return h("div", { class: "dc-sheets" }, teams.map((t) => sheet(play, t)));
}

function patchNotes(play) {
  const team = myTeam(play);
  if (!team) return;
  DIGITS.forEach((d) => {
    const box = document.getElementById(`dc-note-${d}`);
    if (!box || document.activeElement === box) return;
    // A note still waiting to be saved wins over the server's older copy.
    const value = local.notes[d] !== undefined ? local.notes[d] : play.teams[team].notes[d - 1];
    if (box.value !== value) box.value = value;
  });
}

// ---- the order of Encryptors (DC-5) ------------------------------------------------------------
function orderSlot(play) {
  const team = myTeam(play);
  if (!team || play.phase === "over" || play.seat.is_interceptor) return null;
  const order = play.teams[team].players;
  return h("details", { class: "dc-order" }, h("summary", { text: _("Encryptor order") }),
    h("p", { class: "hint", text: interpolate(_("Next Encryptor: %(name)s. A new order applies from the next round."), { name: nameOf(play.teams[team].next_encryptor) }) }),
    h("ol", {}, order.map((id, i) => h("li", {}, h("span", { text: nameOf(id) }),
      i > 0 ? h("button", { type: "button", class: "dc-up", "aria-label": interpolate(_("Move %(name)s up"), { name: nameOf(id) }), onclick: () => {
        const next = [...order];
        [next[i - 1], next[i]] = [next[i], next[i - 1]];
        send({ action: "set_order", order: next });
      } }, "↑") : null))));
}

// ---- tie-break: keyword guessing and judging (DC-25) ---------------------------------------------
function tiebreakSlot(play) {
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
          h("span", { class: "visually-hidden", text: interpolate(_("%(team)s's keyword %(n)s"), { team: teamName(play, OTHER[team]), n: d }) })),
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
    const words = play.teams[team].keywords || [];
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
      h("h4", {}, teamTag(play, t), " ", interpolate(_("%(n)s keywords guessed"), { n: tb.scores[t] })),
      h("ol", {}, (tb.guesses[t] || []).map((word, i) => {
        const hit = (tb.matches[t] || [])[i];
        const accepted = (tb.accepted[OTHER[t]] || []).includes(i + 1);
        return h("li", {}, h("strong", { text: word || "—" }), " → ", h("span", { class: "dc-word", text: (play.teams[OTHER[t]].keywords || [])[i] || "" }), " ",
          hit ? h("span", { class: "dc-ok", text: "✔" }) : accepted ? h("span", { class: "dc-ok", text: `✔ ${_("accepted")}` }) : h("span", { class: "dc-miss", text: "✘" }));
      })))));
  }
  return h("section", { class: "dc-tiebreak" }, parts);
}

// ---- the end, the lobby, abandoning ----------------------------------------------------------
function scoreboard(state) {
  const board = (state.scoreboard && state.scoreboard.decrypto) || {};
  const parts = [];
  if (board.white || board.black) parts.push(`${SYMBOL.white} ${TEAM.white} ${board.white || 0} – ${board.black || 0} ${TEAM.black} ${SYMBOL.black}`);
  if (board.shared) parts.push(interpolate(_("shared victories: %(n)s"), { n: board.shared }));
  if (board.interceptor || board.team_of_two) parts.push(interpolate(_("Interceptor %(a)s – %(b)s team of two"), { a: board.interceptor || 0, b: board.team_of_two || 0 }));
  return parts.length ? h("p", { class: "dc-scoreboard", text: parts.join(" · ") }) : null;
}

function seated(state) {
  return state.players.filter((p) => p.role === "player" && (p.team === "white" || p.team === "black"));
}

function endSlot(play, state) {
  if (play.phase !== "over") return null;
  return h("section", { class: "dc-end" }, h("h3", { class: "dc-winner", text: _("Game over") }),
    h("p", { class: "hint", text: _("Both teams' keywords are shown below.") }), scoreboard(state),
    state.you && state.you.role !== "spectator"
      ? h("button", { type: "button", class: "primary dc-wide", id: "dc-next-game", onclick: () => send({ action: "start_game" }) }, _("Next game"))
      : null);
}

function abandonSlot(play, state) {
  if (play.phase === "over" || !state.you || state.you.role === "spectator" || state.you.device) return null;
  return h("details", { class: "dc-abandon" }, h("summary", { text: _("New game…") }),
    h("button", { type: "button", class: "danger", id: "dc-abandon", onclick: () => {
      if (confirm(_("Abandon this game and deal a new one?"))) send({ action: "start_game", confirm: true });
    } }, _("Abandon and deal again")));
}

function timerText(state) {
  const options = (state.settings && state.settings.decrypto) || {};
  const seconds = options.timer_seconds === undefined ? 30 : options.timer_seconds;
  return seconds === null ? _("No timer: the second Encryptor takes their time.")
    : interpolate(_("Timer: when one Encryptor has sent, the other has %(s)s seconds."), { s: seconds });
}

// For the rules dialog: this room's house rules, above the game's rules.
export function houseRulesSummary(state) {
  return [h("h3", { text: _("This room's house rules") }), h("p", { text: timerText(state) })];
}

// The rules dialog opens at the variant being played (or about to be).
export function howtoSection(state) {
  if (state.play) return isInterceptorMode(state.play) ? "interceptor" : state.play.phase === "tiebreak" || state.play.phase === "judge" ? "tiebreak" : "standard";
  const players = seated(state);
  return players.length === 3 ? "interceptor" : "standard";
}

function houseRules(state) {
  const options = (state.settings && state.settings.decrypto) || {};
  const seconds = options.timer_seconds === undefined ? 30 : options.timer_seconds;
  const summary = timerText(state);
  const body = [h("p", { class: "dc-rules-summary", text: summary }),
    h("p", { class: "hint", text: _("Clues are about meaning: not spelling, letter counts, positions or rhymes, and only public knowledge. Never read the code aloud.") })];
  if (state.you && state.you.role !== "spectator" && !state.you.device) {
    const timer = h("input", { type: "checkbox", id: "dc-hr-timer", checked: seconds === null ? null : true });
    const value = h("input", { type: "number", id: "dc-hr-seconds", min: 15, max: 120, step: 5, value: seconds || 30 });
    body.push(h("form", { class: "house-form", onsubmit: (event) => {
      event.preventDefault();
      send({ action: "house_rules", timer: timer.checked, timer_seconds: Number(value.value) });
    } },
    h("label", { class: "check" }, timer, " ", _("Timer for the second Encryptor")),
    h("label", {}, _("Seconds"), value),
    h("p", { class: "hint", text: _("Changes apply from the next deal.") }),
    h("button", { type: "submit", id: "dc-hr-save" }, _("Save house rules"))));
  }
  return h("details", { class: "house-rules" }, h("summary", { text: _("House rules") }), body);
}

function lobby(state) {
  const players = seated(state);
  const white = players.filter((p) => p.team === "white").length;
  const black = players.filter((p) => p.team === "black").length;
  const three = players.length === 3 && white > 0 && black > 0;
  const standard = white >= 2 && black >= 2 && white <= 4 && black <= 4 && Math.abs(white - black) <= 1;
  let hint;
  if (three) hint = _("Three players: the Interceptor variant. The two players in one team share four keywords; the lone player intercepts their codes.");
  else if (standard) hint = _("Ready for a standard game: two teams, four secret keywords each.");
  else hint = _("Seat 2 to 4 players in each team (sizes may differ by one), or exactly three players (two and one) for the Interceptor variant.");
  const canDeal = state.you && state.you.role !== "spectator";
  const you = state.you;
  const firstOfTeam = you && players.find((p) => p.team === you.team);
  let offer = null;
  if (you && you.role === "spectator") {
    offer = teamPicker(state.seating.teams, "player", send);
  } else if (firstOfTeam && firstOfTeam.id === you.id) {
    // DC-5: the rotation follows the order of arrival, so the first seated player encrypts first.
    offer = h("p", { class: "seat-offer", id: "dc-first-encryptor", text: interpolate(_("You will be %(team)s's first Encryptor."), { team: TEAM[you.team] }) });
  }
  return h("section", { class: "dc-lobby" }, h("h2", { text: _("Decrypto") }), scoreboard(state), offer,
    h("p", { class: "hint", id: "dc-seat-hint", text: hint }),
    h("p", { class: "muted", text: interpolate(_("Seated: %(w)s White, %(b)s Black."), { w: white, b: black }) }),
    canDeal ? h("button", { type: "button", class: "primary dc-wide", id: "dc-deal", dataset: { mode: three ? "interceptor" : "standard" },
      onclick: () => send(three ? { action: "start_game", mode: "interceptor" } : { action: "start_game" }) },
    three ? _("Deal: Interceptor variant") : _("Deal a new game"))
      : h("p", { class: "muted", text: _("Take a seat to deal a game.") }),
    houseRules(state));
}

// ---- the view --------------------------------------------------------------------------------
function resetLocal(play) {
  const at = `${play.number}:${play.round}:${play.phase}`;
  if (local.at === at) return;
  clearTimeout(draftTimer);
  local = { at, clues: ["", "", ""], cluesDirty: false, notes: local.notes, guess: null, words: ["", "", "", ""], accept: new Set() };
}

function announce(play, ctx) {
  if (lastHistory !== null && play.history.length > lastHistory) {
    const entry = play.history[play.history.length - 1];
    ctx.announce(interpolate(_("%(team)s's code was %(code)s"), { team: teamName(play, entry.team), code: fmtCode(entry.code) }));
  }
}

// A banner and a buzz when this player has something to do; the result for everyone.
let lastAlert = { game: null, key: null, mine: false };
function alertTurn(play) {
  const key = `${play.round}:${play.phase}`;
  const mine = play.phase !== "over" && play.seat.tasks.length > 0;
  const previous = lastAlert;
  lastAlert = { game: play.number, key, mine };
  if (previous.game !== play.number) return;  // a page just opened, or a new deal
  if (play.phase === "over" && previous.key !== key) turnAlert(statusText(play));
  else if (mine && (!previous.mine || previous.key !== key)) turnAlert(`${_("Your turn")}: ${TASKS[play.seat.tasks[0]] || ""}`.replace(/: $/, ""), { mine: true });
}

export function render(container, state, ctx) {
  const play = state.play;
  cur.state = state;
  cur.play = play;
  cur.send = ctx.send;
  cur.names = Object.fromEntries(state.players.map((p) => [p.id, p.name]));
  if (!play) {
    clearInterval(countdownTimer);
    countdownTimer = null;
    lastHistory = null;
    container.replaceChildren(lobby(state));
    return;
  }
  resetLocal(play);
  const root = mount(container);
  root.dataset.phase = play.phase;
  root.dataset.role = play.seat.role;
  const k = (...parts) => JSON.stringify(parts);
  const names = state.players.map((p) => [p.id, p.name, p.team]);
  fill(root, "head", k(play.number, play.round, play.phase, play.teams.white.interceptions, play.teams.white.miscommunications,
    play.teams.black.interceptions, play.teams.black.miscommunications, play.seat, names), () => head(play));
  fill(root, "status", k(play.stamp, play.to_act, play.seat, play.encryptor && play.encryptor.submitted,
    play.current && play.current.guess && [play.current.guess.locked, play.current.guess.can_edit], play.outcome, names), () => status(play));
  fill(root, "reveal", k(play.number, play.history.length, names), () => reveals(play));
  const newForm = fill(root, "encrypt", k(play.number, play.stamp, play.encryptor && [play.encryptor.code, play.encryptor.submitted, play.encryptor.submitted && play.encryptor.clues]),
    () => (play.encryptor ? encryptPanel(play) : null));
  patchClues(play);
  const current = play.current;
  fill(root, "guess", k(play.number, play.stamp, current && [current.clues, current.locked, current.guess && [current.guess.task, current.guess.locked, current.guess.can_edit]], names),
    () => (current ? guessPanel(play) : null));
  patchGuess(play);
  fill(root, "tiebreak", k(play.stamp, play.tiebreak, play.seat.team), () => tiebreakSlot(play));
  fill(root, "end", k(play.outcome, play.number, state.scoreboard, state.you && state.you.role), () => endSlot(play, state));
  fill(root, "keywords", k(play.number, play.phase === "over", play.teams.white.keywords, play.teams.black.keywords, play.seat.team), () => keywordsSlot(play));
  fill(root, "sheets", k(play.number, play.phase === "over", play.sheets, play.teams.white.keywords, play.teams.black.keywords, play.seat), () => sheetsSlot(play));
  patchNotes(play);
  fill(root, "order", k(play.number, play.phase === "over", play.seat, play.seat.team && play.teams[play.seat.team].players,
    play.seat.team && play.teams[play.seat.team].next_encryptor, names), () => orderSlot(play));
  fill(root, "abandon", k(play.phase === "over", state.you && state.you.role, state.you && state.you.device), () => abandonSlot(play, state));
  announce(play, ctx);
  alertTurn(play);
  lastHistory = play.history.length;
  // Nothing to do now (the clue phase, for most): the papers take the whole width.
  root.classList.toggle("dc-main-empty", !root.querySelector(".dc-main > .dc-slot:not(:empty)"));
  tickCountdown();
  if (!countdownTimer) countdownTimer = setInterval(tickCountdown, 500);
  // Focus the first clue once, when the form appears (not on every push: on a phone that
  // would bring the keyboard back each time the player closed it).
  const first = document.getElementById("dc-clue-1");
  if (newForm && first && document.activeElement === document.body) first.focus();
}

export function title(state) {
  const play = state.play;
  if (!play) return null;
  const mine = play.phase !== "over" && play.seat.tasks.length > 0;
  return `${mine ? "● " + _("Your turn") + " · " : ""}${_("Decrypto")} · ${state.slug}`;
}
