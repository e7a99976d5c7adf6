// The whole Treasure table drawn from the page's model: the status with every seat, the
// dice, the piles, your site large and the others small, and the result. The live page
// draws it on every change; the replay page draws a snapshot with nothing to click.
import { rulesOf } from "../constants.js";
import { h, loadStylesheet } from "../dom.js";
import { drawDice } from "./dice.js";
import { readLegal } from "./legal.js";
import { drawPile } from "./piles.js";
import { siteCard } from "./site.js";
import { drawResult, seatName, turnLine } from "./status.js";

export function drawTable(root, m) {
  const st = m.state;
  const n = st.seats.length;
  const seatIdx = m.you !== null && m.you !== undefined && m.you < n ? m.you : null;
  const status = h("section", { class: "panel t-status" },
    h("p", { class: "turn-line", id: "turn", "data-testid": "turn", "data-current": String(st.current) }, turnLine(m)),
    h("ol", { class: "seat-list" }, st.seats.map((s, i) => h("li", {
      class: `${!st.over && st.current === i ? "current" : ""}`, "data-seat": String(i) },
    !st.over && st.current === i ? h("span", { class: "marker", "aria-label": "to play" }, "▶") : h("span", { class: "marker" }, ""),
    `${seatName(m, i)}${seatIdx === i ? " (you)" : ""}`,
    h("span", { class: "muted" }, ` ${s.covered.length}/${s.squares} · ${s.turns} ${s.turns === 1 ? "turn" : "turns"}`)))),
    st.movable ? h("p", { class: "muted" }, "Variant: movable tiles (R5.1).") : null);
  const piles = h("section", { class: "panel t-piles", "aria-label": "piles" },
    h("h2", {}, "Piles ", st.over ? null : h("span", { class: "muted small" }, `odds for ${seatName(m, st.current)} this turn`)),
    h("div", { class: "piles" }, st.piles.map((p) => drawPile(p, m))));
  const left = h("div", { class: "t-left" }, drawDice(m), piles);
  const right = h("div", { class: "t-right" });
  if (seatIdx !== null) {
    right.append(siteCard(m, seatIdx, { mine: true, placing: !!m.ui.pile && m.interactive, size: "large" }));
    const others = st.seats.map((_, i) => i).filter((i) => i !== seatIdx);
    if (others.length) {
      right.append(h("div", { class: "others" }, others.map((i) => siteCard(m, i, { mine: false, size: "small" }))));
    }
  } else {
    right.append(h("div", { class: "others all" }, st.seats.map((_, i) => siteCard(m, i, { mine: false, size: "medium" }))));
  }
  const main = h("div", { class: "treasure", "data-testid": "treasure", "data-version": m.version ?? "",
    "data-over": st.over ? "true" : "false" },
  m.replay ? null : drawResult(m), // the replay page shows the result in its own panel
  status, h("div", { class: "t-columns" }, left, right));
  root.replaceChildren(main);
  return main;
}

export function emptyUi() {
  return { held: new Set(), keep: "", pile: null, orient: "h", hover: null, message: null, last: null };
}

const NOOP = { toggle() {}, roll() {}, send() {}, choose() {}, rotate() {}, suggest() {}, place() {}, hover() {}, arrow() {} };

// A read-only picture of a snapshot (the replay page): the same drawing, nothing to click.
export function renderTreasureState(root, state, content, opts = {}) {
  loadStylesheet("/static/css/treasure.css");
  const m = { state, content, rules: rulesOf("treasure", content), names: opts.names || null, bots: opts.bots || null, you: null,
    legal: readLegal([]), interactive: false, busy: false, ui: emptyUi(), handlers: NOOP, result: null, version: null,
    replay: true };
  return drawTable(root, m);
}
