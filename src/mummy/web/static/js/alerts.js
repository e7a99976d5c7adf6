// What the game page tells a player who is not looking at it: the tab's title says when
// it is their turn, and (only when they turn it on) short sounds for a roll of the dice,
// their turn and the end of the game. The sounds are made on the spot with the Web Audio
// API (no audio files to download), and the choice is remembered in this browser.
import { h, svg } from "./dom.js";

const SOUND_KEY = "mummy.sound";
export const YOUR_TURN = "● Your turn";

// Whether the view's seat has something to do now (a spectator never does).
export function myTurn(view) {
  return view.you !== null && view.you !== undefined && !view.over && view.to_act.includes(view.you);
}

// The tab's title: the game's name, marked while it is this seat's turn, so a player in
// another tab sees it come round.
export function titleFor(view, gameTitle) {
  return myTurn(view) ? `${YOUR_TURN} — ${gameTitle}` : `${gameTitle} — mummy`;
}

// Whether the dice changed between two views: the log's entries since (contracts §1)
// name a chance event when a step revealed a roll; without a log, the dice are compared.
export function rolled(prev, view) {
  if (!prev || view.version <= prev.version) return false;
  if (Array.isArray(view.log)) return view.log.some((e) => e.version > prev.version && e.chance);
  const dice = (v) => JSON.stringify((v.state && v.state.dice) || null);
  return dice(view) !== dice(prev) && dice(view) !== "null" && dice(view) !== "[]";
}

// -- sounds ----------------------------------------------------------------------------------
// Each sound is a few notes: [start s, length s, frequency Hz (or "noise"), volume].
const SOUNDS = {
  // Dice rattling: short clicks of noise, quicker at first, like dice coming to rest.
  dice: [0, 0.05, 0.11, 0.18, 0.27, 0.38].map((t) => [t, 0.035, "noise", 0.35]),
  // Your turn: a rising two-note chime.
  turn: [[0, 0.16, 660, 0.18], [0.14, 0.26, 880, 0.18]],
  // Game over: a short falling-then-rising fanfare.
  over: [[0, 0.18, 523, 0.16], [0.16, 0.18, 659, 0.16], [0.32, 0.18, 784, 0.16], [0.5, 0.45, 1047, 0.16]],
};

export class Sounds {
  constructor(storage = undefined) {
    // Storage may be refused (a privacy setting): then the toggle lasts for this page only.
    try { this.storage = storage || window.localStorage; } catch { this.storage = null; }
    this.context = null;
    try { this.on = !!this.storage && this.storage.getItem(SOUND_KEY) === "on"; } catch { this.on = false; }
  }

  set(on) {
    this.on = on;
    try { if (this.storage) this.storage.setItem(SOUND_KEY, on ? "on" : "off"); } catch { /* not remembered */ }
    if (on) this._context(); // made inside the click: browsers start audio only after a gesture
  }

  _context() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    // Before any click or key on this page the browser would start it muted (and warn):
    // after a reload with sounds on, they start with the player's first gesture.
    const active = navigator.userActivation ? navigator.userActivation.hasBeenActive : true;
    if (!this.context && !active) return null;
    if (!this.context) this.context = new Context();
    if (this.context.state === "suspended") this.context.resume().catch(() => {});
    return this.context;
  }

  // Play a sound by name, if sounds are on; returns whether it was played.
  play(name) {
    const notes = SOUNDS[name];
    if (!this.on || !notes) return false;
    const ctx = this._context();
    if (!ctx) return false;
    const t0 = ctx.currentTime + 0.01;
    for (const [start, length, freq, volume] of notes) {
      const gain = ctx.createGain();
      gain.gain.setValueAtTime(volume, t0 + start);
      gain.gain.exponentialRampToValueAtTime(0.001, t0 + start + length);
      gain.connect(ctx.destination);
      const source = freq === "noise" ? noise(ctx, length) : tone(ctx, freq);
      source.connect(gain);
      source.start(t0 + start);
      source.stop(t0 + start + length);
    }
    this.last = name;
    return true;
  }
}

function tone(ctx, freq) {
  const osc = ctx.createOscillator();
  osc.type = "triangle";
  osc.frequency.value = freq;
  return osc;
}

function noise(ctx, length) {
  const buffer = ctx.createBuffer(1, Math.max(1, Math.floor(ctx.sampleRate * length)), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  return source;
}

// A loudspeaker, with sound waves or struck through (drawn: no emoji font is needed).
function speaker(on) {
  const stroke = { fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" };
  return svg("svg", { class: "icon", viewBox: "0 0 20 20", width: 18, height: 18, "aria-hidden": "true" },
    svg("path", { d: "M3 7.5h3l4-3.5v12l-4-3.5H3z", fill: "currentColor" }),
    on ? [svg("path", { d: "M13 7.5a3.5 3.5 0 0 1 0 5", ...stroke }), svg("path", { d: "M15.2 5a7 7 0 0 1 0 10", ...stroke })]
      : [svg("path", { d: "M13 7.5l5 5M18 7.5l-5 5", ...stroke })]);
}

// The header's toggle: a pressed button while sounds are on. `data-last-sound` names the
// last sound played (for tests: a headless browser plays to no speaker).
export function soundToggle(sounds) {
  const button = h("button", { type: "button", id: "sound", class: "sound-toggle" });
  const show = () => {
    button.setAttribute("aria-pressed", String(sounds.on));
    button.replaceChildren(speaker(sounds.on), " ",
      h("span", { class: "label" }, sounds.on ? "Sound on" : "Sound off"));
    button.title = sounds.on ? "Sounds on: dice, your turn, game over (click to turn off)"
      : "Sounds off (click to hear the dice, your turn and the game's end)";
  };
  button.addEventListener("click", () => { sounds.set(!sounds.on); show(); });
  show();
  return button;
}

// Follow a live game: the title after every view, and the sounds when something happens
// (never for the first view: opening a page is not news).
export function followAlerts(live, gameTitle, sounds, button) {
  let prev = null;
  const onView = (view) => {
    document.title = titleFor(view, gameTitle);
    if (prev) {
      let played = false;
      if (view.over && !prev.over) played = sounds.play("over");
      else if (myTurn(view) && !myTurn(prev)) played = sounds.play("turn");
      if (!played && rolled(prev, view)) played = sounds.play("dice");
      if (played && button) button.dataset.lastSound = sounds.last;
    }
    prev = view;
  };
  if (live.view) onView(live.view);
  live.addEventListener("view", (e) => onView(e.detail));
}
