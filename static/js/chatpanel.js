// The chat drawer (chat.js loads it on first use): the room's channel and the player's
// team's, quick reactions, muting a person on this screen.
import { _, h, interpolate, ngettext, TEAM_NAMES, TEAM_SYMBOLS } from "./dom.js";

const REACTIONS = ["👍", "😂", "😮", "🤔", "👏", "🙈"];

// chat.js's state and calls come as arguments: an import back would make the two files'
// hashed names depend on each other (config/storage.py).
export function mount(chat, { setOpen, redraw, myTeam, saveMutes }) {
  const tabs = h("div", { class: "chat-tabs", role: "tablist", "aria-label": _("Channels") });
  const list = h("ol", { class: "chat-lines", "aria-live": "polite", "aria-relevant": "additions", tabindex: "0", "aria-label": _("Messages") });
  const input = h("input", { type: "text", id: "chat-input", maxlength: "280", autocomplete: "off", enterkeyhint: "send",
    "aria-label": _("Message") });
  const note = h("p", { class: "chat-note", hidden: true, role: "status" });
  const form = h("form", { class: "chat-form", onsubmit: (event) => { event.preventDefault(); say(input.value); } },
    input, h("button", { type: "submit", class: "primary", text: _("Send") }));
  const reactions = h("div", { class: "chat-reactions", role: "group", "aria-label": _("Quick reactions") },
    REACTIONS.map((emoji) => h("button", { type: "button", class: "chat-reaction", "aria-label": interpolate(_("Send %(emoji)s"), { emoji }),
      onclick: () => say(emoji) }, emoji)));
  const close = h("button", { type: "button", class: "chat-close", "aria-label": _("Close the chat"), onclick: () => setOpen(false) }, "×");
  // Yielded to the player's turn: the newest line alone; a tap brings the whole drawer back.
  const expand = h("button", { type: "button", class: "chat-expand", hidden: true, onclick: () => strip(false) }, _("Show the chat"));
  let stripped = false;
  function strip(on) {
    stripped = on;
    drawer.classList.toggle("chat-strip", on);
    expand.hidden = !on;
    draw();
    if (!on && !form.hidden) input.focus();
  }
  // A person the game keeps silent (CN-36, DC-46; the state's you.quiet) reads why, and
  // gets no composer to type a line the server would refuse.
  const why = h("p", { class: "chat-quiet", hidden: true });
  const drawer = h("section", { id: "chat-drawer", class: "chat-drawer", hidden: true, "aria-label": _("Chat") },
    h("div", { class: "chat-head" }, tabs, expand, close), list, note, why, reactions, form);
  drawer.addEventListener("keydown", (event) => { if (event.key === "Escape") setOpen(false); });
  chat.els.wrap.prepend(drawer);

  function say(text) {
    const trimmed = text.trim();
    if (!trimmed) return;
    const ref = chat.ctx.send({ action: "say", channel: chat.tab, text: trimmed });
    if (ref !== null && text === input.value) input.value = "";
    note.hidden = true;
  }

  function quietReason(code) {
    if (code === "key_seen") return _("You have seen the key: you say nothing until the game is over.");
    if (code === "encryptor") return _("You are the Encryptor: say nothing until your code is revealed.");
    return _("The game's rules keep you quiet for now.");
  }

  function toggleMute(author) {
    if (chat.muted.has(author)) chat.muted.delete(author);
    else chat.muted.add(author);
    saveMutes();
    redraw();
  }

  const channels = () => (myTeam() ? ["room", "team"] : ["room"]);

  function tabLabel(channel) {
    if (channel === "room") return _("Room");
    const team = myTeam();
    return interpolate(_("%(symbol)s %(team)s team"), { symbol: TEAM_SYMBOLS[team] || "", team: TEAM_NAMES[team] || team });
  }

  function drawTabs() {
    if (!channels().includes(chat.tab)) chat.tab = "room";
    tabs.replaceChildren(...channels().map((channel) => h("button", {
      type: "button", role: "tab", class: channel === "team" ? "chat-tab team-" + myTeam() : "chat-tab",
      "aria-selected": String(channel === chat.tab), dataset: { channel },
      onclick: () => { chat.tab = channel; chat.unread[channel] = 0; redraw(); },
    }, tabLabel(channel), chat.unread[channel] && channel !== chat.tab
      ? h("span", { class: "chat-tab-count", text: String(chat.unread[channel]) }) : null)));
  }

  function lineItem(line) {
    const mine = chat.you && line.author === chat.you.id;
    const isMuted = chat.muted.has(line.author);
    const time = new Date(line.at * 1000);
    const clock = `${String(time.getHours()).padStart(2, "0")}:${String(time.getMinutes()).padStart(2, "0")}`;
    return h("li", { class: `chat-line${mine ? " mine" : ""}${REACTIONS.includes(line.text) ? " reaction" : ""}`, dataset: { id: String(line.id) } },
      mine ? h("span", { class: "chat-who", text: _("You") })
        : h("button", { type: "button", class: "chat-who", text: line.name, title: isMuted ? _("Unmute") : _("Mute"),
          "aria-label": interpolate(isMuted ? _("Unmute %(name)s") : _("Mute %(name)s"), { name: line.name }),
          onclick: () => toggleMute(line.author) }),
      h("span", { class: "chat-text", text: line.text }),
      h("time", { class: "chat-time", datetime: time.toISOString(), text: clock }));
  }

  function draw() {
    drawTabs();
    const held = chat.lines[chat.tab];
    const shown = held.filter((line) => !chat.muted.has(line.author));
    const hidden = held.length - shown.length;
    const stick = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    const items = shown.map(lineItem);
    // Only nodes: replaceChildren writes any other value as text ("null").
    if (hidden) items.push(h("li", { class: "chat-muted-note", text: interpolate(ngettext("%(n)s line from muted people hidden", "%(n)s lines from muted people hidden", hidden), { n: hidden }) }));
    list.replaceChildren(...items);
    if (!held.length) {
      list.append(h("li", { class: "chat-empty", text: chat.tab === "team" ? _("Only your team reads this channel.") : _("Everyone in the room reads this channel.") }));
    }
    if (stick) list.scrollTop = list.scrollHeight;
    const seated = Boolean(chat.you) && !chat.you.device && !chat.ctx.tableView;
    const quiet = seated ? chat.you.quiet : null;
    const canTalk = seated && !quiet && !stripped;
    form.hidden = !canTalk;
    reactions.hidden = !canTalk;
    why.hidden = !quiet || stripped;
    why.textContent = quiet ? quietReason(quiet) : "";
    input.placeholder = chat.tab === "team" ? _("To your team…") : _("To the room…");
    drawer.classList.toggle("team-channel", chat.tab === "team");
    drawer.dataset.team = chat.tab === "team" ? myTeam() : "";
  }

  return {
    draw,
    strip,
    show(open) {
      drawer.hidden = !open;
      if (stripped) strip(false);
      if (!open) return;
      draw();
      list.scrollTop = list.scrollHeight;
      if (!form.hidden) input.focus();
    },
    note(text) {
      note.textContent = text;
      note.hidden = false;
    },
  };
}
