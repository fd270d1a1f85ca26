// One way to redraw a screen without losing what the player is doing, for the room and
// every game.
//
// A part is one element of the page drawn from one slice of the state. It is rebuilt
// only when that slice changed, compared as JSON: the data a part shows is its key, so
// there is no dependency list to forget a field in. A rebuild keeps the focused field
// (its caret and what was typed in it) and the <details> the player had open.

const drawn = new WeakMap();

// Draws `el` from `data` with `build(data)` (a node, a list of nodes, or null) unless it
// already shows that data; true when it was rebuilt.
export function part(el, data, build) {
  const key = JSON.stringify(data === undefined ? null : data);
  if (drawn.get(el) === key) return false;
  drawn.set(el, key);
  keeping(el, () => el.replaceChildren(...[build(data)].flat().filter(Boolean)));
  return true;
}

// Forget what `el` shows, so the next `part` call rebuilds it.
export function forget(el) {
  drawn.delete(el);
}

const TYPED = new Set(["text", "search", "number", "url", "email", "tel", ""]);
const openKey = (details) => details.id || details.className;

// Runs `change` (which rebuilds what is inside `el`) and gives the player back their place.
export function keeping(el, change) {
  const active = document.activeElement;
  const focusId = active && active !== el && el.contains(active) ? active.id : null;
  const typing = focusId && (active.tagName === "TEXTAREA" || (active.tagName === "INPUT" && TYPED.has(active.type)));
  const typed = typing ? active.value : null;
  const caret = typing && typeof active.selectionStart === "number" ? [active.selectionStart, active.selectionEnd] : null;
  const open = new Set([...el.querySelectorAll("details[open]")].map(openKey));
  change();
  for (const details of el.querySelectorAll("details")) {
    if (open.has(openKey(details))) details.open = true;
  }
  const again = focusId ? document.getElementById(focusId) : null;
  if (!again || !el.contains(again)) return;
  // What the player typed wins over the value the rebuilt field was drawn with.
  if (typed !== null && "value" in again && again.value !== typed) again.value = typed;
  again.focus();
  if (caret && again.setSelectionRange) {
    try {
      again.setSelectionRange(caret[0], caret[1]);
    } catch { /* not every input type has a caret */ }
  }
}

// A fixed column of named slots, made once inside `container`: `slots(container, "cn",
// {main: ["a", "b"]})` gives {a: el, b: el} (class `cn-slot cn-slot-a`, `data-slot="a"`).
export function slots(container, prefix, layout) {
  let root = container.querySelector(`:scope > .${prefix}-game`);
  if (!root) {
    root = document.createElement("div");
    root.className = `${prefix}-game`;
    for (const [region, names] of Object.entries(layout)) {
      const box = document.createElement("div");
      box.className = `${prefix}-${region}`;
      for (const name of names) {
        const slot = document.createElement("div");
        slot.className = `${prefix}-slot ${prefix}-slot-${name}`;
        slot.dataset.slot = name;
        box.append(slot);
      }
      root.append(box);
    }
    container.replaceChildren(root);
  }
  const found = { root };
  for (const slot of root.querySelectorAll("[data-slot]")) found[slot.dataset.slot] = slot;
  return found;
}
