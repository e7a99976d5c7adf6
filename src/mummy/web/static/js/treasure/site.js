// A Treasure site (R1.2) as a CSS grid, a square per cell, its tiles laid over them; the
// card around it (whose site, squares covered, turns) and, while a tile is being placed,
// the bar that says where it fits and turns it. Also the geometry of a tile on a site and
// the engine's reason for refusing a placement, told before anything is sent.
import { h, parseSquare, squareName, svg } from "../dom.js";
import { resultLines, seatName } from "./status.js";

const PILE_SHORT = { amulet: "am", scroll: "sc", dagger: "dg", chest: "ch", statue: "st", sarcophagus: "sa" };

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

// A tile as a small rectangle of its size (rows × cols lying as listed).
export function tileShape(rows, cols, pile) {
  const u = 12;
  const cells = [];
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) {
    cells.push(svg("rect", { x: 1 + x * u, y: 1 + y * u, width: u, height: u, class: "cell" }));
  }
  return svg("svg", { class: `tile-shape pile-${pile}`, viewBox: `0 0 ${cols * u + 2} ${rows * u + 2}`,
    width: cols * u + 2, height: rows * u + 2, "aria-hidden": "true" },
  svg("rect", { x: 1, y: 1, width: cols * u, height: rows * u, class: "body" }), cells);
}

function tileLabel(tileId, narrow) {
  const pile = pileOfTile(tileId);
  const n = tileId.slice(tileId.lastIndexOf("-") + 1);
  return narrow ? `${PILE_SHORT[pile] || pile}${n}` : tileId;
}

// A site as a CSS grid: a square per cell of the site, its tiles laid over them.
// `squareAttr` names the squares' attribute: data-square on your own site, data-cell elsewhere.
export function drawSite(seat, site, content, { mine = false, placing = false, size = "normal", handlers = {} } = {}) {
  const tiles = seat.tiles.map((t) => `${t.tile} at ${t.square}.${t.orient}`).join(", ");
  const grid = h("div", { class: `site-grid size-${size}${placing ? " placing" : ""}`, role: placing ? "group" : "img",
    "aria-label": `${seat.name}'s site, the ${seat.site}: ${seat.covered.length} of ${seat.squares} squares covered`
      + `${tiles ? `; tiles: ${tiles}` : ""}` });
  grid.style.setProperty("--cols", site.cols);
  grid.style.setProperty("--rows", site.rows);
  const on = new Set(site.squares);
  const covered = new Set(seat.covered);
  const attr = mine ? "data-square" : "data-cell";
  for (let y = 0; y < site.rows; y++) {
    for (let x = 0; x < site.cols; x++) {
      const name = squareName(x, y);
      let cell;
      if (!on.has(name)) {
        cell = h("div", { class: "void", "aria-hidden": "true" });
      } else {
        const cls = `sq${covered.has(name) ? " covered" : ""}`;
        const label = `${name}${covered.has(name) ? ", covered" : ""}`;
        if (placing) {
          cell = h("button", { type: "button", class: cls, [attr]: name, "data-focus": `sq-${name}`, tabindex: "-1",
            "aria-label": label, onclick: () => handlers.place(name), onmouseenter: () => handlers.hover(name),
            onfocus: () => handlers.hover(name), onkeydown: (e) => handlers.arrow(e, name) });
        } else {
          cell = h("div", { class: cls, [attr]: name, title: label });
        }
      }
      cell.style.gridColumn = String(x + 1);
      cell.style.gridRow = String(y + 1);
      grid.append(cell);
    }
  }
  for (const t of seat.tiles) {
    const pile = content.piles.find((p) => p.pile === pileOfTile(t.tile));
    if (!pile) continue;
    const { x0, y0, hgt, wid } = footprint(pile.rows, pile.cols, t.orient, t.square);
    const el = h("div", { class: `tile pile-${pile.pile}${wid === 1 && hgt > 1 ? " narrow" : ""}`, "data-tile": t.tile,
      title: `${t.tile} at ${t.square}.${t.orient}`, "aria-hidden": "true" },
    h("span", {}, tileLabel(t.tile, wid === 1)));
    el.style.gridColumn = `${x0 + 1} / span ${wid}`;
    el.style.gridRow = `${y0 + 1} / span ${hgt}`;
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
    won ? h("span", { class: "badge done" }, "★ winner") : null),
  h("p", { class: "site-stats muted" },
    `${seat.site} · `, h("span", { "data-testid": "covered" }, `${seat.covered.length}/${seat.squares} covered`),
    ` · ${seat.turns} ${seat.turns === 1 ? "turn" : "turns"}`));
  if (!site) return card;
  const grid = drawSite(seat, site, m.content, { mine: opts.mine, placing: opts.placing, size: opts.size, handlers: m.handlers });
  card.append(h("div", { class: "site-wrap" }, grid));
  if (opts.placing) card.append(placingBar(m));
  return card;
}

function placingBar(m) {
  const ui = m.ui;
  const p = m.state.piles.find((x) => x.pile === ui.pile);
  const top = p.top;
  const square = top.rows === top.cols;
  const places = m.legal.takes.get(ui.pile);
  const here = places ? places[ui.orient].size : 0;
  const other = places && !square ? places[ui.orient === "h" ? "v" : "h"].size : 0;
  let hint = `Placing ${top.tile} (${top.rows}×${top.cols}): click the top-left square; the ${here} lit squares (●) fit.`;
  if (!here && other) hint = `Placing ${top.tile}: it fits nowhere lying ${ui.orient === "h" ? "as listed" : "turned"}; turn it (R).`;
  return h("div", { class: "placing-bar" },
    h("p", { class: "hint", "data-testid": "hint" }, hint),
    h("div", { class: "row" },
      h("button", { type: "button", id: "rotate", "data-focus": "rotate", disabled: square || m.busy,
        "data-orient": ui.orient, onclick: () => m.handlers.rotate(),
        title: "turn the tile (R)" }, `⟳ Turn: ${ui.orient === "h" ? "h (as listed)" : "v (turned)"}`),
      h("button", { type: "button", id: "cancel", "data-focus": "cancel", onclick: () => m.handlers.choose(null) }, "Put back (Esc)")));
}
