// The game's view: rendered from the state the server sent for this browser only.
export function render(container, state, ctx) {
  container.replaceChildren();
}

export function title() {
  return null;
}
