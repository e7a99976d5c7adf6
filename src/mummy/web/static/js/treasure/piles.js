// Treasure's six piles (R1.3): each pile's top tile drawn as its treasure, to its size,
// with the symbols it needs, the tiles left, the chance of showing them this turn (R6) as
// a percentage (the exact fraction in its tooltip) with the advice of the snapshot, why it
// cannot be taken, and its buttons. A card keeps its size whatever it says, so that
// nothing moves when a pile is chosen.
import { h } from "../dom.js";
import { treasureArt } from "./art.js";
import { seatName } from "./status.js";
import { needsLine } from "./symbols.js";

function missingSymbols(needs, dice) {
  const have = [...dice];
  const missing = [];
  for (const s of needs) {
    const i = have.indexOf(s);
    if (i >= 0) have.splice(i, 1);
    else missing.push(s);
  }
  return missing.join("");
}

// A chance as a percentage that never rounds to a certainty it is not: 0% and 100% only
// when it is exactly so.
export function percent(decimal) {
  const p = decimal * 100;
  if (p > 0 && p < 1) return `${p.toFixed(2)}%`;
  if (p > 99.9 && p < 100) return `${p.toFixed(2)}%`;
  if (p === 0 || p === 100) return `${p}%`;
  return `${p.toFixed(1)}%`;
}

// The top tile's exact chance this turn with the best rerolls (R6), and the advice.
function odds(c, m) {
  const st = m.state;
  if (!c) return [h("p", { class: "odds muted", "data-testid": "odds" }, "—")];
  const [num, den] = c.fraction.split("/");
  let advice;
  if (st.rolls === 0) advice = `fresh turn, ${m.rules.rolls} rolls`;
  else if (c.fraction === "1/1") advice = "shows now";
  else if (c.fraction === "0/1") advice = "cannot show this turn";
  else if (c.reroll) advice = `best: reroll ${c.reroll}`;
  else advice = "no reroll left";
  return [h("p", { class: "odds", "data-testid": "odds", "data-fraction": c.fraction, "data-decimal": String(c.decimal),
    title: `exactly ${num}/${den}: ${seatName(m, st.current)}'s chance this turn with the best rerolls (R6)` },
  h("span", { class: "pct" }, percent(c.decimal)),
  h("span", { class: "sr-only" }, ` (exactly ${num} in ${den})`)),
  h("p", { class: "advice muted", "data-testid": "advice", "data-reroll": c.reroll }, advice)];
}

// A pile's buttons: hold the dice for its tile, take it (choose where), or let the game
// arrange it (R5.1).
function pileButtons(p, m, { placeable, auto, selected }) {
  const st = m.state;
  const ui = m.ui;
  const c = p.top.chance;
  const mine = m.you === st.current && !st.over;
  const buttons = [];
  const reroll = c && c.reroll;
  const rerolling = st.dice ? ui.tray.rerolling(st, m.rules.symbols) : "";
  if (mine && reroll && reroll.length < m.rules.dice && reroll !== rerolling && st.rolls > 0 && st.rolls < m.rules.rolls) {
    buttons.push(h("button", { type: "button", class: "suggest", "data-focus": `suggest-${p.pile}`, disabled: m.busy,
      title: `hold the other dice and reroll ${reroll}`, "aria-label": `Hold for the ${p.pile}`,
      onclick: () => m.handlers.suggest(reroll) }, `Hold for it`));
  }
  if (auto) {
    buttons.push(h("button", { type: "button", class: "take-auto primary", "data-focus": `auto-${p.pile}`, disabled: m.busy,
      title: `${auto.text}: the game arranges all your tiles (R5.1)`, onclick: () => m.handlers.send(auto.text) },
    "Take, arrange"));
  }
  if (placeable || !auto) {
    buttons.push(h("button", { type: "button", class: `take${placeable ? " primary" : ""}`, "data-focus": `take-${p.pile}`,
      disabled: !placeable || m.busy, "aria-pressed": selected ? "true" : "false",
      "aria-label": `${selected ? "Placing" : auto ? "Place" : "Take"} the ${p.pile}`, // six "Take"s read alike
      onclick: () => m.handlers.choose(p.pile) }, selected ? "Placing…" : auto ? "Place" : "Take"));
  }
  return h("div", { class: "pile-actions row" }, buttons);
}

export function drawPile(p, m) {
  const st = m.state;
  const top = p.top;
  const placeable = m.legal.takes.has(p.pile);
  const auto = m.legal.auto.get(p.pile) || null;
  const selected = m.ui.pile === p.pile;
  const cls = `pile${placeable || auto ? " takeable" : ""}${selected ? " selected" : ""}${top ? "" : " empty"}`;
  const head = h("header", { class: "pile-head" },
    h("h3", {}, p.pile),
    h("span", { class: "left", "data-testid": "left" }, `${p.left} left`));
  if (!top) return h("article", { class: cls, "data-pile": p.pile }, head, h("p", { class: "muted" }, "empty"));
  const parts = [head,
    h("div", { class: "pile-top", title: `${top.tile}: ${top.rows}×${top.cols} squares, needs ${top.needs}` },
      treasureArt(p.pile, top.rows, top.cols, { cls: "pile-art" }),
      h("span", { class: "tile-id sr-only", "data-testid": "top" }, top.tile),
      h("span", { class: "size muted" }, `${top.rows}×${top.cols}`)),
    needsLine(top.needs), ...odds(top.chance, m)];
  if (!st.over && top.fits === false) {
    parts.push(h("p", { class: "why" }, `⊘ no room on ${m.you === st.current ? "your" : `${seatName(m, st.current)}'s`} site`));
  } else if (!st.over && st.rolls > 0 && !placeable && !auto) {
    const miss = missingSymbols(top.needs, st.dice);
    if (miss) parts.push(h("p", { class: "why" }, `missing ${miss}`));
  }
  if (m.interactive) parts.push(pileButtons(p, m, { placeable, auto, selected }));
  return h("article", { class: cls, "data-pile": p.pile, "aria-label": `${p.pile} pile` }, parts);
}
