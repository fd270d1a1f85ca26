// Decrypto's Encryptor: the code and the three clues (DC-7, DC-8, DC-16, DC-17).
import { _, h, interpolate, ngettext } from "../dom.js";
import { fold } from "../ui.js";
import { CLUE_MAX, cur, send, stamp } from "./common.js";

const DRAFT_DELAY = 400;
let draftTimer = null;

// DC-17's "same clue" test on what is typed: Unicode NFC, spaces folded, case folded as the
// engine does; the server sends its own folded keywords and used clues (`taken`).
const clueKey = (text) => fold(text.normalize("NFC").split(/\s+/).filter(Boolean).join(" "));
// The keyword test also ignores accents ("Uber" gives away "Über"), as the engine's.
const looseKey = (text) => clueKey(text.normalize("NFKD").replace(/\p{M}/gu, ""));

export function clueProblems(clues, taken, { submitting = false } = {}) {
  const keywords = new Set(taken.keywords);
  const used = new Set(taken.used);
  return clues.map((clue) => {
    const key = clueKey(clue);
    if (!key) return submitting ? _("Every clue needs some text.") : null;
    if ([...clue].length > CLUE_MAX) return interpolate(ngettext("At most %(n)s character.", "At most %(n)s characters.", CLUE_MAX), { n: CLUE_MAX });
    if (keywords.has(looseKey(clue))) return _("A clue may not be one of your own keywords.");
    if (used.has(key)) return _("Your team has already used this clue in this game.");
    used.add(key);
    return null;
  });
}

const takenNow = () => (cur.play.encryptor && cur.play.encryptor.taken) || { keywords: [], used: [] };

export function stopDraft() {
  clearTimeout(draftTimer);
}

function scheduleDraft() {
  clearTimeout(draftTimer);
  draftTimer = setTimeout(() => {
    const play = cur.play;
    if (!play || !play.encryptor || play.encryptor.submitted) return;
    send({ action: "save_draft", ...stamp(play), clues: cur.local.clues });
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

// `panel`: code, submitted, and the clues once sent (the draft is written in by patchClues);
// `keywords`: the team's own.
export function encryptPanel({ panel, keywords }) {
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
        cur.local.clues[i] = event.target.value;
        cur.local.cluesDirty = true;
        showProblems(clueProblems(cur.local.clues, takenNow()));
        scheduleDraft();
      } }),
    h("p", { id: `dc-clue-${i + 1}-problem`, class: "dc-problem error", role: "alert" })));
  return h("section", { class: "dc-encrypt" },
    h("div", { class: "dc-code-line" }, h("h3", { text: _("Your code") }), codeBox,
      h("p", { class: "hint", text: _("Only you see it. One clue per digit, about the keyword's meaning.") })),
    h("form", { id: "dc-clue-form", class: "dc-clue-form", onsubmit: (event) => {
      event.preventDefault();
      const problems = clueProblems(cur.local.clues, takenNow(), { submitting: true });
      showProblems(problems);
      const first = problems.findIndex(Boolean);
      if (first >= 0) {
        document.getElementById(`dc-clue-${first + 1}`).focus();
        return;
      }
      clearTimeout(draftTimer);
      send({ action: "submit_clues", ...stamp(cur.play), clues: cur.local.clues });
    } }, fields, h("button", { type: "submit", class: "primary dc-wide", id: "dc-submit-clues" }, _("Send clues"))));
}

// The draft goes into the inputs without rebuilding them.
export function patchClues(play) {
  if (!play.encryptor || play.encryptor.submitted) return;
  const local = cur.local;
  play.encryptor.clues.forEach((serverValue, i) => {
    const input = document.getElementById(`dc-clue-${i + 1}`);
    if (!input) return;
    // The browser's own typing wins over the echo of an older draft.
    if (!local.cluesDirty) local.clues[i] = serverValue;
    if (input.value !== local.clues[i] && document.activeElement !== input) input.value = local.clues[i];
    else if (!input.value && local.clues[i]) input.value = local.clues[i];
  });
  showProblems(clueProblems(local.clues, takenNow()));
}
