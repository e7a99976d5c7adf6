// Treasure's five dice (R2): each its symbol as a shape and a letter, held or not, in the
// places the tray keeps them (tray.js: a hold stays on the die that was held); the roll
// and pass buttons; the message line and the keys (not on touch screens).
import { h } from "../dom.js";
import { hintButton } from "./hint.js";
import { rollAction } from "./legal.js";
import { seatName } from "./status.js";
import { SYMBOLS, glyph } from "./symbols.js";

// The dice, each a button to hold or release while holding is allowed.
function diceButtons(m) {
  const st = m.state;
  const ui = m.ui;
  const mine = m.interactive && m.you === st.current && !st.over;
  const canHold = mine && st.rolls > 0 && st.rolls < m.rules.rolls && !m.busy;
  const step = ui.step && ui.step.letters ? ui.step : null; // another player's roll being shown
  const shown = step ? step.letters : st.dice ? ui.tray.shown(st) : [];
  const letters = Array.from({ length: m.rules.dice }, (_, i) => shown[i] || null);
  return letters.map((letter, i) => {
    const held = !step && letter !== null && ui.tray.held.has(i);
    const tumbling = step ? ui.rolling && step.rolled.has(i) : ui.rolling || (letter !== null && ui.tray.rolled.has(i));
    const label = letter ? `die ${i + 1}: ${SYMBOLS[letter].name} (${letter})${held ? ", held" : ""}` : `die ${i + 1}: not rolled`;
    const inner = [h("span", { class: "key", "aria-hidden": "true" }, String(i + 1)), glyph(letter),
      h("span", { class: "die-letter" }, letter || "–"), h("span", { class: "held-tag", "aria-hidden": "true" }, held ? "HELD" : "")];
    const attrs = { class: `die${held ? " held" : ""}${letter ? "" : " blank"}${tumbling ? " tumble" : ""}`, "data-die": String(i),
      "data-letter": letter || "" };
    if (!m.interactive) return h("div", { ...attrs, role: "img", "aria-label": label }, inner);
    return h("button", { ...attrs, type: "button", "data-focus": `die-${i}`, "aria-pressed": held ? "true" : "false",
      "aria-label": label, disabled: !canHold || !letter || !!step, title: `hold / release this die (key ${i + 1})`,
      onclick: () => m.handlers.toggle(i) }, inner);
  });
}

// Roll (or reroll the dice not held) and pass.
function rollButtons(m) {
  const r = rollAction(m);
  const pass = m.legal.pass;
  return h("div", { class: "row actions" },
    h("button", { type: "button", id: "roll", class: "primary", "data-focus": "roll", "data-action": r.text || "",
      disabled: !r.legal || m.busy, onclick: () => m.handlers.roll() }, r.label),
    h("button", { type: "button", id: "pass", "data-focus": "pass", disabled: !pass || m.busy,
      onclick: () => m.handlers.send(pass.text) }, "Pass"),
    hintButton(m));
}

// The line under the dice: whose roll it is, or what another player is doing right now
// (the step being shown, moves.js).
function rollLine(m) {
  const st = m.state;
  const step = m.ui.step;
  if (step) {
    return h("p", { class: "rolls step", "data-testid": "rolls", "data-step": step.kind, "data-version": String(step.version) },
      step.text);
  }
  return h("p", { class: "rolls muted", "data-testid": "rolls" },
    st.over ? "the game is over" : st.rolls ? `roll ${st.rolls} of ${m.rules.rolls}` : "not rolled yet",
    st.over ? "" : ` · ${seatName(m, st.current)} to play`);
}

function keyHints(m) {
  const k = (text) => h("span", { class: "kbd" }, text);
  return h("p", { class: "keys muted" }, k("1"), "–", k(String(m.rules.dice)), " hold · ", k("Space"), " / ", k("R"),
    " roll · ", k("R"), " turn a tile · ", k("Esc"), " put back");
}

export function drawDice(m) {
  const ui = m.ui;
  const error = ui.message && ui.message.kind === "error";
  return h("section", { class: "panel t-dice", "aria-label": "dice" },
    h("div", { class: "dice", role: m.interactive ? "group" : null, "aria-label": "the dice" }, diceButtons(m)),
    rollLine(m),
    m.interactive ? rollButtons(m) : null,
    m.interactive ? h("p", { id: "message", class: `message${ui.message ? ` ${ui.message.kind}` : ""}`,
      "data-testid": "message", role: error ? "alert" : "status" }, ui.message ? ui.message.text : "") : null,
    m.interactive ? keyHints(m) : null);
}
