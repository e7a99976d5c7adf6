// A Treasure site (R1.2) drawn in its own shape: a CSS grid, a square per cell of the
// site, the site's outline drawn around its squares (its real shape: the content's
// `squares`, not its bounding box), and its tiles laid over them as the treasures they
// are (art.js); the card around it (whose site, squares covered, turns) and, on your own
// site, the bar that says where the chosen tile fits, turns it and places it (always
// there, so that nothing moves when a tile is chosen). Also the geometry of a tile on a
// site and the engine's reason for refusing a placement, told before anything is sent.
import { h, parseSquare, squareName, svg } from "../dom.js";
import { treasureArt } from "./art.js";
import { resultLines, seatName } from "./status.js";

export function pileOfTile(tileId) {
  return tileId.slice(0, tileId.lastIndexOf("-"));
}

// The squares a tile covers, lying `orient` with its top-left square on `anchor`.
export function footprint(rows, cols, orient, anchor) {
  const [x0, y0] = parseSquare(anchor);
  const [hgt, wid] = orient === "v" ? [cols, rows] : [rows, cols];
  const squares = [];
  for (let dy = 0; dy < hgt; dy++) for (let dx = 0; dx < wid; dx++) squares.push([x0 + dx, y0 + dy]);
  return { x0, y0, hgt, wid, squares };
}

// A square tile is the same either way round: the notation names it "h" only.
export const orientOf = (tile, orient) => (tile.rows === tile.cols ? "h" : orient);

// Why a placement is refused, in the engine's own words (R3.3; see game.py `_check_take`).
export function placementFault(tile, orient, anchor, site, covered) {
  const o = orientOf(tile, orient);
  const on = new Set(site.squares);
  const { squares } = footprint(tile.rows, tile.cols, o, anchor);
  if (squares.some(([x, y]) => x >= site.cols || y >= site.rows || !on.has(squareName(x, y)))) {
    return { rule: "R3.3", where: anchor, message: `R3.3: ${tile.tile} (${tile.rows}x${tile.cols}, ${o}) would go off the site at ${anchor}` };
  }
  const taken = new Set(covered);
  const hits = squares.filter(([x, y]) => taken.has(squareName(x, y))).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  if (hits.length) {
    const where = squareName(hits[0][0], hits[0][1]);
    return { rule: "R3.3", where, message: `R3.3: the tile would lie on another tile at ${where}` };
  }
  return null;
}


// The site's outline: the edges of its squares that have no square beside them, over a
// darker ground that shows between the squares. Drawn in the grid's cells (one unit a
// cell), stretched over the whole grid.
function outline(site) {
  const on = new Set(site.squares);
  const ground = [];
  const edges = [];
  for (const name of site.squares) {
    const [x, y] = parseSquare(name);
    ground.push(`M${x} ${y}h1v1h-1Z`);
    if (!on.has(squareName(x, y - 1))) edges.push(`M${x} ${y}h1`);
    if (!on.has(squareName(x, y + 1))) edges.push(`M${x} ${y + 1}h1`);
    if (!on.has(squareName(x - 1, y))) edges.push(`M${x} ${y}v1`);
    if (!on.has(squareName(x + 1, y))) edges.push(`M${x + 1} ${y}v1`);
  }
  return svg("svg", { class: "site-outline", viewBox: `0 0 ${site.cols} ${site.rows}`, preserveAspectRatio: "none",
    "aria-hidden": "true", focusable: "false" },
  svg("path", { class: "ground", d: ground.join("") }),
  svg("path", { class: "edge", d: edges.join(""), "vector-effect": "non-scaling-stroke" }));
}

// A placed tile: its treasure, lying as placed, over the squares it covers; its id and
// place in the tooltip (never as the picture's label).
function placedTile(t, pile, large) {
  const { x0, y0, hgt, wid } = footprint(pile.rows, pile.cols, t.orient, t.square);
  const needs = (pile.tiles.find((x) => x.tile === t.tile) || {}).needs || "";
  const el = h("div", { class: `tile pile-${pile.pile}`, "data-tile": t.tile,
    title: `${pile.pile} ${t.tile} at ${t.square}.${t.orient}${needs ? ` (needed ${needs})` : ""}` },
  treasureArt(pile.pile, pile.rows, pile.cols, { orient: t.orient, needs: large && pile.rows * pile.cols > 1 ? needs : "" }));
  el.style.gridColumn = `${x0 + 1} / span ${wid}`;
  el.style.gridRow = `${y0 + 1} / span ${hgt}`;
  return el;
}

function squareCell(name, covered, mine, placing, handlers) {
  const cls = `sq${covered ? " covered" : ""}`;
  const label = `${name}${covered ? ", covered" : ""}`;
  const attr = mine ? "data-square" : "data-cell";
  if (!placing) return h("div", { class: cls, [attr]: name, title: label });
  return h("button", { type: "button", class: cls, [attr]: name, "data-focus": `sq-${name}`, tabindex: "-1",
    "aria-label": label, onclick: (e) => handlers.place(name, e), onmouseenter: () => handlers.hover(name),
    onfocus: () => handlers.hover(name), onkeydown: (e) => handlers.arrow(e, name) });
}

// A site as a CSS grid: a square per cell of the site, its tiles laid over them.
// Your own site's squares are named by data-square, the others' by data-cell.
// `arriving`: tiles dropping in now; `later`: tiles of steps not shown yet (moves.js).
export function drawSite(seat, site, content, { mine = false, placing = false, size = "normal", handlers = {}, arriving = null,
  later = null } = {}) {
  const tiles = seat.tiles.map((t) => `${t.tile} at ${t.square}.${t.orient}`).join(", ");
  const grid = h("div", { class: `site-grid size-${size}${placing ? " placing" : ""}`, role: placing ? "group" : "img",
    "aria-label": `${seat.name}'s site, the ${seat.site}: ${seat.covered.length} of ${seat.squares} squares covered`
      + `${tiles ? `; tiles: ${tiles}` : ""}` }, outline(site));
  grid.style.setProperty("--cols", site.cols);
  grid.style.setProperty("--rows", site.rows);
  const on = new Set(site.squares);
  const covered = new Set(seat.covered);
  for (let y = 0; y < site.rows; y++) {
    for (let x = 0; x < site.cols; x++) {
      const name = squareName(x, y);
      if (!on.has(name)) continue; // off the site: nothing there, the outline shows its shape
      const cell = squareCell(name, covered.has(name), mine, placing, handlers);
      cell.style.gridColumn = String(x + 1);
      cell.style.gridRow = String(y + 1);
      grid.append(cell);
    }
  }
  for (const t of seat.tiles) {
    const pile = content.piles.find((p) => p.pile === pileOfTile(t.tile));
    if (!pile) continue;
    const el = placedTile(t, pile, size === "large");
    if (arriving && arriving.has(t.tile)) el.classList.add("arriving");
    if (later && later.has(t.tile)) el.classList.add("later");
    grid.append(el);
  }
  if (placing) grid.addEventListener("mouseleave", () => handlers.hover(null));
  return grid;
}

export function siteCard(m, i, opts) {
  const seat = m.state.seats[i];
  const site = m.content.sites[seat.site];
  const current = !m.state.over && m.state.current === i;
  const you = m.you === i;
  const res = m.state.over ? resultLines(m) : null;
  const won = res && res.winners.includes(i);
  const card = h("section", { class: `panel site-card${current ? " current" : ""}${you ? " mine" : ""}${won ? " won" : ""}`,
    "data-seat": String(i), id: opts.mine ? "my-site" : null, "data-site": seat.site, "aria-label": `${seatName(m, i)}'s site` },
  h("header", { class: "site-head" },
    h("h2", {}, seatName(m, i), you ? " (you)" : "", m.bots && m.bots[i] ? h("span", { class: "badge" }, `bot: ${m.bots[i]}`) : null),
    current ? h("span", { class: "badge turn", "data-testid": "to-play" }, "▶ to play") : null,
    won ? h("span", { class: "badge done" }, "★ winner") : null,
    h("span", { class: "site-stats muted" },
      `${seat.site} · `, h("span", { "data-testid": "covered" }, `${seat.covered.length}/${seat.squares} covered`),
      ` · ${seat.turns} ${seat.turns === 1 ? "turn" : "turns"}`)));
  if (!site) return card;
  const grid = drawSite(seat, site, m.content, { mine: opts.mine, placing: opts.placing, size: opts.size, handlers: m.handlers,
    arriving: m.ui.arriving, later: m.ui.later });
  card.append(h("div", { class: "site-wrap" }, grid));
  if (opts.mine && m.interactive) card.append(placingBar(m));
  return card;
}

// What the bar says: where the chosen tile fits, or what to do to choose one.
function placingHint(m, top, here, other) {
  const ui = m.ui;
  if (!top) {
    const mine = m.you === m.state.current;
    if (!mine || !m.state.rolls) return "Your site: tiles you take are placed here.";
    return m.legal.takes.size ? "Choose a lit pile's Take, then a square for the tile's top-left corner."
      : "No tile can be taken with these dice yet.";
  }
  if (!here && other) return `The ${ui.pile} fits nowhere lying ${ui.orient === "h" ? "as listed" : "turned"}: turn it.`;
  if (ui.armed) return `The ${ui.pile} at ${ui.armed}: tap again or press Place to put it there.`;
  return `Placing the ${ui.pile} (${top.rows}×${top.cols}): ${here} lit squares (●) take its top-left corner.`;
}

// The bar under your site: always drawn, its buttons hidden while no tile is chosen.
function placingBar(m) {
  const ui = m.ui;
  const p = ui.pile ? m.state.piles.find((x) => x.pile === ui.pile) : null;
  const top = p ? p.top : null;
  const square = top && top.rows === top.cols;
  const places = top ? m.legal.takes.get(ui.pile) : null;
  const here = places ? places[ui.orient].size : 0;
  const other = places && !square ? places[ui.orient === "h" ? "v" : "h"].size : 0;
  return h("div", { class: `placing-bar${top ? "" : " idle"}` },
    h("p", { class: "hint", "data-testid": "hint" }, placingHint(m, top, here, other)),
    h("div", { class: "row bar-buttons" },
      h("button", { type: "button", id: "rotate", "data-focus": "rotate", disabled: !top || square || m.busy,
        "data-orient": ui.orient, onclick: () => m.handlers.rotate(),
        title: "turn the tile a quarter (key R)" }, `⟳ Turn (${ui.orient === "h" ? "as listed" : "turned"})`),
      h("button", { type: "button", id: "place-here", class: "primary", "data-focus": "place-here",
        disabled: !top || !ui.armed || m.busy, onclick: () => m.handlers.confirm() },
      ui.armed ? `Place at ${ui.armed}` : "Place"),
      h("button", { type: "button", id: "cancel", "data-focus": "cancel", disabled: !top,
        onclick: () => m.handlers.choose(null), title: "put the tile back (key Esc)" }, "Put back")));
}

// A review's move drawn over the replay's table (js/review.js): the tile a take would have
// put on the seat's site, as a ghost on its squares, or the dice a reroll would roll again,
// marked ("better": the better move, "chosen": the player's own). A roll or a pass draws
// nothing (the review says it in words). How many actions were drawn.
export function drawMoveOn(root, seat, actions, content, state, look = "better") {
  const grid = root.querySelector(`.site-card[data-seat="${seat}"] .site-grid`);
  if (!grid) return 0;
  for (const old of root.querySelectorAll(".review-ghost")) old.remove();
  for (const die of root.querySelectorAll(".die.review-reroll")) die.classList.remove("review-reroll", "better", "chosen");
  let drawn = 0;
  for (const a of actions) {
    if (a.kind === "reroll") {
      const left = [...a.dice];
      for (const die of root.querySelectorAll(".t-dice .die[data-letter]")) {
        const k = left.indexOf(die.dataset.letter);
        if (k < 0) continue;
        left.splice(k, 1);
        die.classList.add("review-reroll", look);
      }
      drawn += 1;
      continue;
    }
    const pile = a.kind === "take" ? content.piles.find((p) => p.pile === a.pile) : null;
    if (!pile) continue;
    const { x0, y0, hgt, wid } = footprint(pile.rows, pile.cols, orientOf(pile, a.orient), a.square);
    const ghost = h("div", { class: `review-ghost ${look}`, "data-move": look, title: `${look === "better" ? "Better" : "Your move"}: the ${pile.pile} at ${a.square}` },
      treasureArt(pile.pile, pile.rows, pile.cols, { orient: orientOf(pile, a.orient) }));
    ghost.style.gridColumn = `${x0 + 1} / span ${wid}`;
    ghost.style.gridRow = `${y0 + 1} / span ${hgt}`;
    grid.append(ghost);
    drawn += 1;
  }
  return drawn;
}
