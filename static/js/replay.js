// A finished game's replay (/r/<slug>/games/<n>/): steps through the frames the server
// built from the move log. The game's own script draws a frame; this one only moves
// between them (buttons, slider, arrow keys, the list of every step).
const root = document.getElementById("replay");
const data = JSON.parse(document.getElementById("replay-data").textContent);
const frames = data.frames;
const slider = document.getElementById("replay-slider");
const label = document.getElementById("replay-label");
const count = document.getElementById("replay-count");
const boardEl = document.getElementById("replay-board");
let draw = null;
let at = 0;

function show(index) {
  at = Math.max(0, Math.min(frames.length - 1, index));
  const frame = frames[at];
  slider.value = String(at);
  count.textContent = `${at + 1} / ${frames.length}`;
  label.textContent = frame.label;
  for (const button of document.querySelectorAll(".replay-goto")) {
    if (Number(button.dataset.frame) === at) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
  document.getElementById("replay-prev").disabled = at === 0;
  document.getElementById("replay-first").disabled = at === 0;
  document.getElementById("replay-next").disabled = at === frames.length - 1;
  document.getElementById("replay-last").disabled = at === frames.length - 1;
  if (draw) draw(data.board, frame, boardEl, at > 0 ? frames[at - 1] : null);
  const url = new URL(location.href);
  url.hash = `step-${at}`;
  history.replaceState(null, "", url);
}

document.getElementById("replay-first").addEventListener("click", () => show(0));
document.getElementById("replay-prev").addEventListener("click", () => show(at - 1));
document.getElementById("replay-next").addEventListener("click", () => show(at + 1));
document.getElementById("replay-last").addEventListener("click", () => show(frames.length - 1));
slider.addEventListener("input", () => show(Number(slider.value)));
for (const button of document.querySelectorAll(".replay-goto")) {
  button.addEventListener("click", () => show(Number(button.dataset.frame)));
}
document.addEventListener("keydown", (event) => {
  // The slider moves itself with the arrows; elsewhere they step too (not while typing).
  if (event.target === slider || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: frames.length - 1 };
  if (event.key in moves) {
    event.preventDefault();
    show(moves[event.key]);
  }
});

const fromHash = /^#step-(\d+)$/.exec(location.hash);
const start = fromHash ? Number(fromHash[1]) : 0;
if (root.dataset.script) {
  import(root.dataset.script).then((module) => {
    draw = module.render;
    show(start);
  });
} else {
  show(start);
}
