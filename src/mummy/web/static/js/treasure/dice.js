// Treasure's five dice (R2): each its symbol as a shape and a letter, held or not; the
// roll and pass buttons; the message line, the last moves and the keys.
import { h } from "../dom.js";
import { rollAction } from "./legal.js";
import { seatName } from "./status.js";
import { SYMBOLS, glyph } from "./symbols.js";

// The dice, each a button to hold or release while holding is allowed.
function diceButtons(m) {
  const st = m.state;
  const ui = m.ui;
  const mine = m.interactive && m.you === st.current && !st.over;
  const canHold = mine && st.rolls > 0 && st.rolls < m.rules.rolls && !m.busy;
  const letters = st.dice ? [...st.dice] : Array(m.rules.dice).fill(null);
  return letters.map((letter, i) => {
    const held = ui.held.has(i) && letter !== null;
    const label = letter ? `die ${i + 1}: ${SYMBOLS[letter].name} (${letter})${held ? ", held" : ""}` : `die ${i + 1}: not rolled`;
    const inner = [h("span", { class: "key", "aria-hidden": "true" }, String(i + 1)), glyph(letter),
      h("span", { class: "die-letter" }, letter || "–"), h("span", { class: "held-tag", "aria-hidden": "true" }, held ? "HELD" : "")];
    const attrs = { class: `die${held ? " held" : ""}${letter ? "" : " blank"}`, "data-die": String(i), "data-letter": letter || "" };
    if (!m.interactive) return h("div", { ...attrs, role: "img", "aria-label": label }, inner);
    return h("button", { ...attrs, type: "button", "data-focus": `die-${i}`, "aria-pressed": held ? "true" : "false",
      "aria-label": label, disabled: !canHold || !letter, title: "hold / release (key " + (i + 1) + ")",
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
      onclick: () => m.handlers.send(pass.text) }, "Pass"));
}

export function drawDice(m) {
  const st = m.state;
  const parts = [h("div", { class: "dice", role: m.interactive ? "group" : null, "aria-label": "the dice" }, diceButtons(m))];
  const rollInfo = h("p", { class: "rolls muted", "data-testid": "rolls" },
    st.over ? "the game is over" : st.rolls ? `roll ${st.rolls} of ${m.rules.rolls}` : "not rolled yet",
    st.over ? "" : ` · ${seatName(m, st.current)} to play`);
  parts.push(rollInfo);
  if (m.interactive) parts.push(rollButtons(m));
  return h("section", { class: "panel t-dice", "aria-label": "dice" }, h("h2", {}, "Dice"), parts,
    m.interactive ? h("p", { id: "message", class: `message${m.ui.message ? ` ${m.ui.message.kind}` : ""}`,
      "data-testid": "message", role: m.ui.message && m.ui.message.kind === "error" ? "alert" : "status" },
    m.ui.message ? m.ui.message.text : "") : null,
    m.ui.last ? h("p", { class: "last muted", "data-testid": "last" }, m.ui.last) : null,
    m.interactive ? h("p", { class: "keys muted" }, h("span", { class: "kbd" }, "1"), "–", h("span", { class: "kbd" }, String(m.rules.dice)),
      " hold · ", h("span", { class: "kbd" }, "Space"), " / ", h("span", { class: "kbd" }, "R"), " roll · ",
      h("span", { class: "kbd" }, "Esc"), " put back") : null);
}
