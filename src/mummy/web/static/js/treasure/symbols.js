// Mummy's Treasure's six symbols (R1.1) as the page draws them: each its own shape and its
// letter, the colour only helping (never colour alone).
import { h, svg } from "../dom.js";

const INK = "#1d1a14";
// The symbols' names and colours, by letter; their canonical order is the content's
// (rules.symbols).
export const SYMBOLS = {
  S: { name: "Scarab", colour: "#0072b2" },
  A: { name: "Ankh", colour: "#e69f00" },
  E: { name: "Eye", colour: "#56b4e9" },
  P: { name: "Pyramid", colour: "#f0e442" },
  C: { name: "Cobra", colour: "#009e73" },
  J: { name: "Jackal", colour: "#d55e00" },
};

function stroked(tag, attrs, colour, width = 2.6) {
  // A dark outline under a coloured line, so the shape reads on any background.
  return [svg(tag, { ...attrs, fill: "none", stroke: INK, "stroke-width": width + 2, "stroke-linecap": "round" }),
    svg(tag, { ...attrs, fill: "none", stroke: colour, "stroke-width": width, "stroke-linecap": "round" })];
}

export function glyph(letter, cls = "glyph") {
  const c = SYMBOLS[letter] ? SYMBOLS[letter].colour : "#999";
  const line = { stroke: INK, "stroke-width": 1.4, "stroke-linejoin": "round" };
  let parts;
  switch (letter) {
    case "S": // scarab: a beetle, body, head and legs
      parts = [
        svg("path", { d: "M6 9 L2.5 7 M6 14 L2 14 M6 19 L2.5 21 M18 9 L21.5 7 M18 14 L22 14 M18 19 L21.5 21", stroke: INK, "stroke-width": 1.4 }),
        svg("ellipse", { cx: 12, cy: 14.5, rx: 6.5, ry: 7.5, fill: c, ...line }),
        svg("circle", { cx: 12, cy: 5, r: 3, fill: c, ...line }),
        svg("line", { x1: 12, y1: 7.5, x2: 12, y2: 22, stroke: INK, "stroke-width": 1.4 }),
      ];
      break;
    case "A": // ankh: a loop over a cross
      parts = [
        ...stroked("ellipse", { cx: 12, cy: 6.5, rx: 3.6, ry: 4.5 }, c),
        ...stroked("line", { x1: 4.5, y1: 12.5, x2: 19.5, y2: 12.5 }, c),
        ...stroked("line", { x1: 12, y1: 11, x2: 12, y2: 22 }, c),
      ];
      break;
    case "E": // eye: an almond with its pupil
      parts = [
        svg("path", { d: "M1.5 12 Q12 2 22.5 12 Q12 22 1.5 12 Z", fill: c, ...line }),
        svg("circle", { cx: 12, cy: 12, r: 3.6, fill: INK }),
      ];
      break;
    case "P": // pyramid: a triangle with a course line
      parts = [
        svg("polygon", { points: "12,2.5 22.5,21.5 1.5,21.5", fill: c, ...line }),
        svg("line", { x1: 6.5, y1: 13, x2: 17.5, y2: 13, stroke: INK, "stroke-width": 1.2 }),
      ];
      break;
    case "C": // cobra: a winding snake with its head up
      parts = [
        ...stroked("path", { d: "M4 21 C 19 21, 20 14, 12 13 C 5 12, 5 6, 11 5" }, c, 3),
        svg("ellipse", { cx: 14, cy: 4.5, rx: 3.5, ry: 2.6, fill: c, ...line }),
      ];
      break;
    case "J": // jackal: a head with two tall ears
      parts = [
        svg("polygon", { points: "4,2 9,9.5 15,9.5 20,2 19.5,13 12,22.5 4.5,13", fill: c, ...line }),
        svg("circle", { cx: 9, cy: 13, r: 1.3, fill: INK }),
        svg("circle", { cx: 15, cy: 13, r: 1.3, fill: INK }),
      ];
      break;
    default: // not rolled yet
      parts = [svg("rect", { x: 3, y: 3, width: 18, height: 18, rx: 3, fill: "none", stroke: "#b9ad92", "stroke-width": 1.5, "stroke-dasharray": "3 3" })];
  }
  return svg("svg", { class: cls, viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" }, parts);
}

// A symbol as shape + letter (never colour alone).
export function symbolChip(letter) {
  return h("span", { class: "sym", "data-sym": letter, title: `${SYMBOLS[letter].name} (${letter})` },
    glyph(letter), h("span", { class: "sym-letter" }, letter));
}

export function needsLine(needs) {
  const names = [...needs].map((s) => SYMBOLS[s].name).join(", ");
  return h("span", { class: "needs", "data-testid": "needs", "data-needs": needs, "aria-label": `needs ${names}` },
    [...needs].map(symbolChip));
}
