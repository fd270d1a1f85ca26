// The games' sound cues, our own: synthesised with WebAudio when played (no audio files).
// Any part of the page asks for one by name:
//   document.dispatchEvent(new CustomEvent("wordrooms:sound", { detail: { name: "reveal-own" } }))
// Browsers refuse sound before a gesture, so nothing plays until the first tap or key.
// A TV (the table view) keeps its own switch, off until someone unmutes it there.
const tv = document.body.classList.contains("table-view");
const KEY = tv ? "sound-tv" : "sound";
const saved = () => localStorage.getItem(KEY);
export const soundOn = () => (tv ? saved() === "on" : saved() !== "off");

// [frequency, start (s), length (s), wave, slide to]: short, soft, none over a second.
const CUES = {
  deal: [[660, 0, 0.05, "triangle"], [740, 0.07, 0.05, "triangle"], [830, 0.14, 0.05, "triangle"], [990, 0.21, 0.08, "triangle"]],
  "reveal-own": [[523, 0, 0.12], [784, 0.09, 0.24]],
  "reveal-bystander": [[330, 0, 0.2, "triangle", 262]],
  "reveal-opponent": [[392, 0, 0.14, "triangle"], [311, 0.12, 0.28, "triangle"]],
  "reveal-assassin": [[220, 0, 0.7, "sawtooth", 55], [233, 0.02, 0.6, "triangle", 60]],
  turn: [[880, 0, 0.3], [1320, 0.01, 0.25]],
  clue: [[587, 0, 0.09, "sine", 880], [880, 0.1, 0.12]],
  token: [[988, 0, 0.07, "square"], [1319, 0.07, 0.26, "square"]],
  win: [[523, 0, 0.14], [659, 0.12, 0.14], [784, 0.24, 0.14], [1047, 0.36, 0.45]],
  lose: [[392, 0, 0.2, "triangle"], [330, 0.18, 0.2, "triangle"], [262, 0.36, 0.5, "triangle"]],
};

let audio = null;
const lastPlayed = {};
export function play(name) {
  const cue = CUES[name];
  if (!cue || !audio || !soundOn()) return;
  // The same cue asked twice at once (a turn alert and a game's own event) plays once.
  const now = audio.currentTime;
  if (now - (lastPlayed[name] ?? -1) < 0.25) return;
  lastPlayed[name] = now;
  // Under reduced motion the cues stay, quieter.
  const loud = matchMedia("(prefers-reduced-motion: reduce)").matches ? 0.05 : 0.11;
  try {
    for (const [freq, start, length, wave = "sine", to] of cue) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      const t = now + start;
      osc.type = wave;
      osc.frequency.setValueAtTime(freq, t);
      if (to) osc.frequency.exponentialRampToValueAtTime(to, t + length);
      // Square and sawtooth waves sound louder than a sine at the same gain.
      const peak = wave === "sine" || wave === "triangle" ? loud : loud * 0.35;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.linearRampToValueAtTime(peak, t + 0.012);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + length + 0.02);
    }
  } catch { /* sound is a nicety */ }
}

function wake() {
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
  } catch { /* no WebAudio: silence */ }
}
for (const type of ["pointerdown", "keydown"]) addEventListener(type, wake, { capture: true, passive: true });
document.addEventListener("wordrooms:sound", (event) => play(event.detail && event.detail.name));

// The room bar's switch: pressed while sound is on, remembered on this device.
const button = document.getElementById("sound-toggle");
function show() {
  const on = soundOn();
  button.setAttribute("aria-pressed", String(on));
  button.dataset.sound = on ? "on" : "off";
}
if (button) {
  button.addEventListener("click", () => {
    localStorage.setItem(KEY, soundOn() ? "off" : "on");
    show();
    wake();
    play("clue");
  });
  show();
}
