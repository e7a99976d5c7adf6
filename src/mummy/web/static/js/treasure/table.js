// The whole Treasure table drawn from the page's model, laid out to fit one screen: a
// status line (whose turn, what to do, every seat), then the dice and the piles on one
// side and your site (large, with its placing bar), the other sites (small) and the game
// log on the other. The live page draws it on every change; the replay page draws a
// snapshot with nothing to click.
import { rulesOf } from "../constants.js";
import { h, loadStylesheet } from "../dom.js";
import { drawDice } from "./dice.js";
import { readLegal } from "./legal.js";
import { drawPile } from "./piles.js";
import { siteCard } from "./site.js";
import { drawResult, placeWord, seatName, turnLine } from "./status.js";
import { Tray } from "./tray.js";

function seatList(m, seatIdx) {
  const st = m.state;
  const res = st.over ? (m.result || st.result) : null;
  return h("ol", { class: "seat-list" }, st.seats.map((s, i) => {
    const current = !st.over && st.current === i;
    return h("li", { class: current ? "current" : "", "data-seat": String(i) },
      h("span", { class: "marker", "aria-label": current ? "to play" : null }, current ? "▶" : ""),
      `${seatName(m, i)}${seatIdx === i ? " (you)" : ""}`,
      h("span", { class: "muted" }, ` ${s.covered.length}/${s.squares} · ${s.turns} ${s.turns === 1 ? "turn" : "turns"}`),
      res && res.places ? h("span", { class: "badge place", "data-place": String(res.places[i]) }, placeWord(res.places[i])) : null);
  }));
}

export function drawTable(root, m) {
  const st = m.state;
  const n = st.seats.length;
  const seatIdx = m.you !== null && m.you !== undefined && m.you < n ? m.you : null;
  const status = h("section", { class: "panel t-status" },
    h("p", { class: "turn-line", id: "turn", "data-testid": "turn", "data-current": String(st.current) }, turnLine(m)),
    seatList(m, seatIdx),
    st.movable ? h("p", { class: "muted variant" }, "Variant: movable tiles (R5.1).") : null,
    m.replay ? null : drawResult(m)); // the replay page shows the result in its own panel
  const piles = h("section", { class: "panel t-piles", "aria-label": "piles" },
    h("h2", {}, "Piles ", st.over ? null : h("span", { class: "muted small" }, `chances for ${seatName(m, st.current)} this turn`)),
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
  if (m.log) right.append(m.log); // the same panel each time: its scroll and toggle stay
  const main = h("div", { class: `treasure${m.interactive ? " playing" : ""}`, "data-testid": "treasure",
    "data-version": m.version ?? "", "data-over": st.over ? "true" : "false" },
  status, h("div", { class: "t-columns" }, left, right));
  root.replaceChildren(main);
  return main;
}

// The page's own state, apart from the game's: the dice tray (places and holds), the
// chosen pile, its orientation, the square pointed at and the one tapped, the message,
// and the other players' step being shown.
export function emptyUi() {
  return { tray: new Tray(), pile: null, orient: "h", hover: null, armed: null, message: null,
    step: null, rolling: false, arriving: new Set(), later: new Set() };
}

const NOOP = { toggle() {}, roll() {}, send() {}, choose() {}, rotate() {}, suggest() {}, place() {}, confirm() {}, hover() {},
  arrow() {} };

// A read-only picture of a snapshot (the replay page): the same drawing, nothing to click.
export function renderTreasureState(root, state, content, opts = {}) {
  loadStylesheet("/static/css/treasure.css");
  const ui = emptyUi();
  ui.tray.update(null, state, content.rules.symbols);
  ui.tray.rolled = new Set(); // a snapshot does not tumble
  const m = { state, content, rules: rulesOf("treasure", content), names: opts.names || null, bots: opts.bots || null, you: null,
    legal: readLegal([]), interactive: false, busy: false, ui, handlers: NOOP, result: null, version: null,
    replay: true, log: null };
  return drawTable(root, m);
}
