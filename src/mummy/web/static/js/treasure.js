// Mummy's Treasure in the browser: the six piles with their top tiles and exact odds, the
// five dice with holds, your site to place tiles on, the other sites, and the result.
// The engine on the server is the judge: the page lights up what `view.legal` allows, a
// placement that cannot be legal is refused here with the rule the engine would name
// (R3.3), and anything the server refuses is shown with its rule id; nothing is lost.
//
// Keys: 1–5 hold or release die N; Space or R roll / reroll the dice that are not held
// (R turns the tile instead while one is being placed); Esc puts a chosen tile back;
// arrows move over your site while placing, Enter places.
import { ARROWS, describeError, errorText, h, loadStylesheet, parseSquare, squareName, svg } from "./api.js";

const ROLLS = 3;
const ORDER = "SAEPCJ";
const INK = "#1d1a14";
// The six symbols (R1.1): each has its own shape and its letter; the colour only helps.
const SYMBOLS = {
  S: { name: "Scarab", colour: "#0072b2" },
  A: { name: "Ankh", colour: "#e69f00" },
  E: { name: "Eye", colour: "#56b4e9" },
  P: { name: "Pyramid", colour: "#f0e442" },
  C: { name: "Cobra", colour: "#009e73" },
  J: { name: "Jackal", colour: "#d55e00" },
};
const PILE_SHORT = { amulet: "am", scroll: "sc", dagger: "dg", chest: "ch", statue: "st", sarcophagus: "sa" };

// -- reading the snapshot and the legal actions ---------------------------------------------

function pileOfTile(tileId) {
  return tileId.slice(0, tileId.lastIndexOf("-"));
}

function sortSymbols(letters) {
  return [...letters].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)).join("");
}

// The legal actions as the page needs them: which piles can be taken, and where.
function readLegal(legal) {
  const out = { roll: false, pass: false, rerolls: new Set(), takes: new Map(), auto: new Set() };
  for (const text of legal || []) {
    let m;
    if (text === "roll") out.roll = true;
    else if (text === "pass") out.pass = true;
    else if ((m = /^reroll:([SAEPCJ]+)$/.exec(text))) out.rerolls.add(m[1]);
    else if ((m = /^take:([a-z]+)@([A-Z]+\d+)\.([hv])$/.exec(text))) {
      if (!out.takes.has(m[1])) out.takes.set(m[1], { h: new Set(), v: new Set() });
      out.takes.get(m[1])[m[3]].add(m[2]);
    } else if ((m = /^take:([a-z]+)$/.exec(text))) out.auto.add(m[1]);
  }
  return out;
}

// The squares a tile covers, lying `orient` with its top-left square on `anchor`.
function footprint(rows, cols, orient, anchor) {
  const [x0, y0] = parseSquare(anchor);
  const [hgt, wid] = orient === "v" ? [cols, rows] : [rows, cols];
  const squares = [];
  for (let dy = 0; dy < hgt; dy++) for (let dx = 0; dx < wid; dx++) squares.push([x0 + dx, y0 + dy]);
  return { x0, y0, hgt, wid, squares };
}

// A square tile is the same either way round: the notation names it "h" only.
const orientOf = (tile, orient) => (tile.rows === tile.cols ? "h" : orient);

// Why a placement is refused, in the engine's own words (R3.3; see game.py `_check_take`).
function placementFault(tile, orient, anchor, site, covered) {
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

function percent(decimal) {
  const p = decimal * 100;
  if (p > 0 && p < 1) return `${p.toFixed(2)}%`;
  return `${p.toFixed(1)}%`;
}

// -- drawing: symbols, dice, tiles, sites ---------------------------------------------------

function stroked(tag, attrs, colour, width = 2.6) {
  // A dark outline under a coloured line, so the shape reads on any background.
  return [svg(tag, { ...attrs, fill: "none", stroke: INK, "stroke-width": width + 2, "stroke-linecap": "round" }),
    svg(tag, { ...attrs, fill: "none", stroke: colour, "stroke-width": width, "stroke-linecap": "round" })];
}

function glyph(letter, cls = "glyph") {
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
function symbolChip(letter) {
  return h("span", { class: "sym", "data-sym": letter, title: `${SYMBOLS[letter].name} (${letter})` },
    glyph(letter), h("span", { class: "sym-letter" }, letter));
}

function needsLine(needs) {
  const names = [...needs].map((s) => SYMBOLS[s].name).join(", ");
  return h("span", { class: "needs", "data-testid": "needs", "data-needs": needs, "aria-label": `needs ${names}` },
    [...needs].map(symbolChip));
}

// A tile as a small rectangle of its size (rows × cols lying as listed).
function tileShape(rows, cols, pile) {
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
function drawSite(seat, site, content, { mine = false, placing = false, size = "normal", handlers = {} } = {}) {
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

// -- the page's model: one function draws the whole table from it ------------------------

function seatName(m, i) {
  return (m.names && m.names[i]) || m.state.seats[i].name || `player ${i + 1}`;
}

function resultLines(m) {
  const st = m.state;
  const res = m.result || st.result;
  if (!res) return null;
  const n = st.seats.length;
  const turns = res.turns || st.seats.map((s) => s.turns);
  const squares = res.squares || st.seats.map((s) => s.covered.length);
  let headline;
  if (n === 1) {
    headline = res.reason === "full" ? `Site full in ${turns[0]} turns (R4.3).`
      : `Unfinished: no tile can fit any more; ${squares[0]} squares covered (R4.3).`;
  } else if (res.reason === "full" && res.winner >= 0) {
    headline = `${seatName(m, res.winner)} filled the site and wins (R4.1).`;
  } else {
    const best = res.places.map((p, i) => (p === 1 ? seatName(m, i) : null)).filter(Boolean);
    headline = `No tile can be taken any more (R4.2); most squares: ${best.join(", ")} ${Math.max(...squares)}.`;
  }
  // A solo game that got stuck has a score, not a winner (R4.3).
  const winners = n === 1 && res.reason !== "full" ? [] : res.places.map((p, i) => (p === 1 ? i : null)).filter((i) => i !== null);
  const mine = m.you !== null && m.you !== undefined && n > 1
    ? (res.places[m.you] === 1 ? (winners.length > 1 ? "You share first place!" : "You win!")
      : `You are ${ordinal(res.places[m.you])}.`) : null;
  return { headline, mine, winners, turns, squares, places: res.places };
}

function ordinal(n) {
  return `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;
}

function drawResult(m) {
  const r = resultLines(m);
  if (!r) return null;
  const order = r.places.map((p, i) => i).sort((a, b) => r.places[a] - r.places[b] || a - b);
  return h("section", { class: "panel t-result", id: "result", "data-testid": "result",
    "data-winners": r.winners.join(","), "aria-live": "polite" },
  h("h2", {}, "★ Game over"),
  h("p", { class: "headline" }, r.headline),
  r.mine ? h("p", { class: "you-result" }, r.mine) : null,
  h("table", { class: "lines places" },
    h("thead", {}, h("tr", {}, h("th", { class: "num" }, "place"), h("th", {}, "player"),
      h("th", { class: "num" }, "squares"), h("th", { class: "num" }, "turns"))),
    h("tbody", {}, order.map((i) => h("tr", { "data-seat": i, class: r.winners.includes(i) ? "winner" : "" },
      h("td", { class: "num" }, r.winners.includes(i) ? `${r.places[i]} ★` : String(r.places[i])),
      h("td", {}, seatName(m, i)),
      h("td", { class: "num" }, String(r.squares[i])),
      h("td", { class: "num" }, String(r.turns[i])))))));
}

function turnLine(m) {
  const st = m.state;
  if (st.over) return "The game is over.";
  const name = seatName(m, st.current);
  const mine = m.you === st.current;
  const who = mine ? "Your turn" : `${name}'s turn${m.bots && m.bots[st.current] ? " (bot)" : ""}`;
  if (!m.interactive || !mine) return `${who}. ${st.rolls ? `Roll ${st.rolls} of ${ROLLS}.` : ""}`.trim();
  if (st.rolls === 0) return "Your turn: roll the dice (Space or R).";
  if (m.legal.takes.size || m.legal.auto.size) {
    return st.rolls < ROLLS ? `Roll ${st.rolls} of ${ROLLS}: take a tile, or hold dice and reroll the others.`
      : `Roll ${ROLLS} of ${ROLLS}: take a tile (R3.2).`;
  }
  if (m.legal.pass) return `Roll ${ROLLS} of ${ROLLS}: no tile can be taken, so pass (R3.2).`;
  return `Roll ${st.rolls} of ${ROLLS}: nothing to take yet; hold dice and reroll the others.`;
}

function drawPile(p, m) {
  const st = m.state;
  const top = p.top;
  const ui = m.ui;
  const placeable = m.legal.takes.has(p.pile);
  const auto = m.legal.auto.has(p.pile);
  const selected = ui.pile === p.pile;
  const cls = `pile${placeable || auto ? " takeable" : ""}${selected ? " selected" : ""}${top ? "" : " empty"}`;
  const head = h("header", { class: "pile-head" },
    h("h3", {}, p.pile),
    h("span", { class: "left", "data-testid": "left" }, `${p.left} left`));
  if (!top) return h("article", { class: cls, "data-pile": p.pile }, head, h("p", { class: "muted" }, "empty"));
  const parts = [head,
    h("div", { class: "pile-top" }, tileShape(top.rows, top.cols, p.pile),
      h("span", { class: "tile-id", "data-testid": "top" }, top.tile),
      h("span", { class: "size muted" }, `${top.rows}×${top.cols}`)),
    needsLine(top.needs)];
  const c = top.chance;
  if (c) {
    const [num, den] = c.fraction.split("/");
    let advice;
    if (st.rolls === 0) advice = `fresh turn, ${ROLLS} rolls`;
    else if (c.fraction === "1/1") advice = "shows now";
    else if (c.fraction === "0/1") advice = "cannot show this turn";
    else if (c.reroll) advice = `best: reroll ${c.reroll}`;
    else advice = "no reroll left";
    parts.push(h("p", { class: "odds", "data-testid": "odds", "data-fraction": c.fraction, "data-decimal": String(c.decimal),
      title: `exact chance for ${seatName(m, st.current)} this turn with the best rerolls (R6)` },
    h("span", { class: "pct" }, percent(c.decimal)), " ",
    h("span", { class: "fraction", "aria-label": `exactly ${num} in ${den}` }, `= ${num}/${den}`)));
    parts.push(h("p", { class: "advice muted", "data-testid": "advice", "data-reroll": c.reroll }, advice));
  } else {
    parts.push(h("p", { class: "odds muted", "data-testid": "odds" }, "—"));
  }
  if (!st.over && top.fits === false) {
    parts.push(h("p", { class: "why" }, `⊘ no room on ${m.you === st.current ? "your" : `${seatName(m, st.current)}'s`} site`));
  } else if (!st.over && st.rolls > 0 && !placeable && !auto) {
    const miss = missingSymbols(top.needs, st.dice);
    if (miss) parts.push(h("p", { class: "why" }, `missing ${miss}`));
  }
  if (m.interactive) {
    const mine = m.you === st.current && !st.over;
    const buttons = [];
    const reroll = c && c.reroll;
    const rerolling = st.dice ? sortSymbols([...st.dice].filter((_, i) => !ui.held.has(i)).join("")) : "";
    if (mine && reroll && reroll.length < 5 && reroll !== rerolling && st.rolls > 0 && st.rolls < ROLLS) {
      buttons.push(h("button", { type: "button", class: "suggest", "data-focus": `suggest-${p.pile}`, disabled: m.busy,
        title: `hold the other dice and reroll ${reroll}`, onclick: () => m.handlers.suggest(reroll) }, `Hold for it`));
    }
    if (auto) {
      buttons.push(h("button", { type: "button", class: "take-auto primary", "data-focus": `auto-${p.pile}`, disabled: m.busy,
        title: `take:${p.pile}: the game arranges all your tiles (R5.1)`, onclick: () => m.handlers.send(`take:${p.pile}`) },
      "Take, arrange"));
    }
    if (placeable || !auto) {
      buttons.push(h("button", { type: "button", class: `take${placeable ? " primary" : ""}`, "data-focus": `take-${p.pile}`,
        disabled: !placeable || m.busy, "aria-pressed": selected ? "true" : "false",
        onclick: () => m.handlers.choose(p.pile) }, selected ? "Placing…" : auto ? "Place" : "Take"));
    }
    parts.push(h("div", { class: "pile-actions row" }, buttons));
  }
  return h("article", { class: cls, "data-pile": p.pile, "aria-label": `${p.pile} pile` }, parts);
}

function drawDice(m) {
  const st = m.state;
  const ui = m.ui;
  const mine = m.interactive && m.you === st.current && !st.over;
  const canHold = mine && st.rolls > 0 && st.rolls < ROLLS && !m.busy;
  const letters = st.dice ? [...st.dice] : [null, null, null, null, null];
  const dice = letters.map((letter, i) => {
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
  const parts = [h("div", { class: "dice", role: m.interactive ? "group" : null, "aria-label": "the dice" }, dice)];
  const rollInfo = h("p", { class: "rolls muted", "data-testid": "rolls" },
    st.over ? "the game is over" : st.rolls ? `roll ${st.rolls} of ${ROLLS}` : "not rolled yet",
    st.over ? "" : ` · ${seatName(m, st.current)} to play`);
  parts.push(rollInfo);
  if (m.interactive) {
    const r = rollAction(m);
    parts.push(h("div", { class: "row actions" },
      h("button", { type: "button", id: "roll", class: "primary", "data-focus": "roll", "data-action": r.text || "",
        disabled: !r.legal || m.busy, onclick: () => m.handlers.roll() }, r.label),
      h("button", { type: "button", id: "pass", "data-focus": "pass", disabled: !m.legal.pass || m.busy,
        onclick: () => m.handlers.send("pass") }, "Pass")));
  }
  return h("section", { class: "panel t-dice", "aria-label": "dice" }, h("h2", {}, "Dice"), parts,
    m.interactive ? h("p", { id: "message", class: `message${m.ui.message ? ` ${m.ui.message.kind}` : ""}`,
      "data-testid": "message", role: m.ui.message && m.ui.message.kind === "error" ? "alert" : "status" },
    m.ui.message ? m.ui.message.text : "") : null,
    m.ui.last ? h("p", { class: "last muted", "data-testid": "last" }, m.ui.last) : null,
    m.interactive ? h("p", { class: "keys muted" }, h("span", { class: "kbd" }, "1"), "–", h("span", { class: "kbd" }, "5"),
      " hold · ", h("span", { class: "kbd" }, "Space"), " / ", h("span", { class: "kbd" }, "R"), " roll · ",
      h("span", { class: "kbd" }, "Esc"), " put back") : null);
}

// What the roll button does now: the first roll, or a reroll of the dice not held.
function rollAction(m) {
  const st = m.state;
  if (st.rolls === 0) return { text: "roll", label: "Roll the dice", legal: m.legal.roll };
  if (st.rolls >= ROLLS) return { text: "", label: "No reroll left", legal: false };
  const letters = sortSymbols([...st.dice].filter((_, i) => !m.ui.held.has(i)).join(""));
  const n = letters.length;
  return { text: n ? `reroll:${letters}` : "", label: n ? `Reroll ${n} ${n === 1 ? "die" : "dice"} (${letters})` : "Reroll",
    legal: n > 0 && m.legal.rerolls.has(letters) };
}

function siteCard(m, i, opts) {
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

function drawTable(root, m) {
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

function emptyUi() {
  return { held: new Set(), keep: "", pile: null, orient: "h", hover: null, message: null, last: null };
}

const NOOP = { toggle() {}, roll() {}, send() {}, choose() {}, rotate() {}, suggest() {}, place() {}, hover() {}, arrow() {} };

// A read-only picture of a snapshot (the replay page): the same drawing, nothing to click.
export function renderTreasureState(root, state, content, opts = {}) {
  loadStylesheet("/static/css/treasure.css");
  const m = { state, content, names: opts.names || null, bots: opts.bots || null, you: null,
    legal: readLegal([]), interactive: false, busy: false, ui: emptyUi(), handlers: NOOP, result: null, version: null,
    replay: true };
  return drawTable(root, m);
}

// -- the live page -------------------------------------------------------------------------

export function mount(root, live, content) {
  loadStylesheet("/static/css/treasure.css");
  // The table is drawn again on every change; what happens is also told to screen readers
  // through one live region that stays put.
  const announcer = h("p", { class: "sr-only", role: "status", "aria-live": "polite", "data-testid": "announce" });
  const host = h("div", { class: "treasure-host" });
  root.replaceChildren(announcer, host);
  const announce = (text) => { announcer.textContent = text; };
  const ui = emptyUi();
  let busy = false;
  let awaitVersion = null;
  let wantFocus = null; // a control that was disabled by a redraw: focus it again when it is back
  let prev = null; // the last view drawn: to keep holds across a reroll and to tell what others did

  // The legal actions read once per view: a draw, a hover and a click all ask for them.
  let parsed = { view: null, legal: null };
  const legalOf = (view) => {
    if (parsed.view !== view) parsed = { view, legal: readLegal(view.over ? [] : view.legal) };
    return parsed.legal;
  };

  const model = () => {
    const view = live.view;
    const you = view.you === undefined ? null : view.you;
    return { state: view.state, content, names: view.seats.map((s) => s.name), bots: view.seats.map((s) => s.bot),
      you, legal: legalOf(view), interactive: you !== null && !view.over, busy, ui,
      handlers, result: view.result || null, version: view.version };
  };

  const say = (text, kind = "info") => {
    ui.message = text ? { text, kind } : null;
    if (text) announce(text);
  };

  const send = (text) => {
    if (busy || !live.view) return;
    busy = true;
    awaitVersion = null;
    say("");
    const sentOn = live.view.version;
    draw();
    live.act(text).then((result) => {
      awaitVersion = result && result.version ? result.version : sentOn + 1;
      if (live.view.version >= awaitVersion) { busy = false; draw(); }
    }, (error) => {
      busy = false;
      say(errorText(error), "error");
      draw();
    });
  };

  const handlers = {
    toggle(i) {
      const st = live.view.state;
      if (busy || live.view.you !== st.current || st.over || st.rolls === 0 || st.rolls >= ROLLS) return;
      if (ui.held.has(i)) ui.held.delete(i); else ui.held.add(i);
      draw();
    },
    roll() {
      const m = model();
      const st = m.state;
      if (!m.interactive || busy) return;
      if (st.current !== m.you) { say(`R2.3: it is ${seatName(m, st.current)}'s turn; play goes in seat order`, "error"); draw(); return; }
      const r = rollAction(m);
      if (r.legal) {
        if (st.rolls > 0) ui.keep = sortSymbols([...st.dice].filter((_, i) => ui.held.has(i)).join(""));
        send(r.text);
        return;
      }
      if (st.rolls >= ROLLS) say("R3.1: at most 3 rolls a turn", "error");
      else if (!r.text) say("R3.1: a reroll names at least one die: release a held die first", "error");
      else say(`${r.text} is not possible now`, "error");
      draw();
    },
    send,
    choose(pile) {
      let target = null;
      if (pile === null || ui.pile === pile) {
        if (ui.pile) target = `take-${ui.pile}`;
        ui.pile = null; ui.hover = null;
      } else {
        const places = model().legal.takes.get(pile);
        if (!places) return;
        ui.pile = pile;
        ui.hover = null;
        if (!places[ui.orient].size && places[ui.orient === "h" ? "v" : "h"].size) ui.orient = ui.orient === "h" ? "v" : "h";
        const first = [...places[ui.orient]][0];
        if (first) target = `sq-${first}`;
      }
      say("");
      draw(target);
    },
    rotate() {
      if (!ui.pile) return;
      const top = live.view.state.piles.find((p) => p.pile === ui.pile).top;
      if (top.rows === top.cols) return;
      ui.orient = ui.orient === "h" ? "v" : "h";
      draw();
    },
    suggest(reroll) {
      const st = live.view.state;
      const out = [...reroll];
      ui.held = new Set();
      [...st.dice].forEach((letter, i) => {
        const k = out.indexOf(letter);
        if (k >= 0) out.splice(k, 1); else ui.held.add(i);
      });
      draw();
    },
    place(square) {
      const m = model();
      if (!ui.pile || busy) return;
      const places = m.legal.takes.get(ui.pile);
      const p = m.state.piles.find((x) => x.pile === ui.pile);
      const top = p.top;
      const orient = orientOf(top, ui.orient);
      const text = `take:${ui.pile}@${square}.${orient}`;
      if (places && places[orient].has(square)) { send(text); return; }
      const seat = m.state.seats[m.you];
      const fault = placementFault(top, orient, square, content.sites[seat.site], seat.covered);
      if (fault) { say(fault.message, "error"); draw(); return; }
      send(text); // not listed, but no fault seen here: the engine says why
    },
    hover(square) {
      ui.hover = square;
      preview();
    },
    arrow(event, square) {
      const step = ARROWS[event.key];
      if (!step) return;
      event.preventDefault();
      const site = content.sites[live.view.state.seats[live.view.you].site];
      let [x, y] = parseSquare(square);
      for (;;) {
        x += step[0]; y += step[1];
        if (x < 0 || y < 0 || x >= site.cols || y >= site.rows) return;
        const next = root.querySelector(`#my-site [data-square="${squareName(x, y)}"]`);
        if (next) { next.focus(); return; }
      }
    },
  };

  // The tile under the pointer (or the focused square), drawn over the site: hatched
  // where it fits, crossed where it does not (never colour alone).
  function preview() {
    const grid = root.querySelector("#my-site .site-grid");
    if (!grid) return;
    grid.querySelectorAll(".ghost").forEach((g) => g.remove());
    if (!ui.pile || !ui.hover || !live.view) return;
    const m = model();
    const p = m.state.piles.find((x) => x.pile === ui.pile);
    if (!p || !p.top) return;
    const orient = orientOf(p.top, ui.orient);
    const places = m.legal.takes.get(ui.pile);
    const ok = !!places && places[orient].has(ui.hover);
    const site = content.sites[m.state.seats[m.you].site];
    const f = footprint(p.top.rows, p.top.cols, orient, ui.hover);
    const x1 = Math.min(site.cols, f.x0 + f.wid);
    const y1 = Math.min(site.rows, f.y0 + f.hgt);
    const ghost = h("div", { class: `ghost ${ok ? "ok" : "bad"}`, "data-testid": "ghost", "aria-hidden": "true" },
      h("span", {}, ok ? `${p.top.tile}` : "✕"));
    ghost.style.gridColumn = `${f.x0 + 1} / ${x1 + 1}`;
    ghost.style.gridRow = `${f.y0 + 1} / ${y1 + 1}`;
    grid.append(ghost);
  }

  // Draw the whole table again. Focus stays on the same control (by its data-focus key),
  // or moves to `target` when the page chose where it goes next.
  function draw(target = null) {
    if (!live.view) return;
    const active = document.activeElement;
    const inside = active && root.contains(active) && active !== root;
    const idle = !active || active === document.body;
    const key = target || (inside && active.dataset ? active.dataset.focus : null) || (idle ? wantFocus : null);
    const m = model();
    drawTable(host, m);
    // Light up where the chosen tile can go, and let the site take one tab stop.
    if (ui.pile) {
      const places = m.legal.takes.get(ui.pile);
      const top = m.state.piles.find((x) => x.pile === ui.pile).top;
      const orient = orientOf(top, ui.orient);
      let firstLegal = null;
      for (const sq of root.querySelectorAll("#my-site [data-square]")) {
        if (places && places[orient].has(sq.dataset.square)) {
          sq.classList.add("legal");
          sq.setAttribute("aria-label", `${sq.dataset.square}: ${ui.pile} fits here`);
          firstLegal = firstLegal || sq;
        }
      }
      const stop = (key && root.querySelector(`#my-site [data-focus="${key}"]`)) || firstLegal
        || root.querySelector("#my-site [data-square]");
      if (stop) stop.tabIndex = 0;
    }
    if (key) {
      const el = root.querySelector(`[data-focus="${key}"]`);
      if (el && !el.disabled) {
        el.focus({ preventScroll: !target });
        wantFocus = null;
      } else {
        wantFocus = key;
      }
    }
    preview();
  }

  // What changed since the last view: keep the holds across a reroll, drop a choice
  // that is no longer legal, and say what the other players did.
  function onView(view) {
    const st = view.state;
    if (busy && awaitVersion !== null && view.version >= awaitVersion) busy = false;
    if (prev) {
      const ps = prev.state;
      if (st.current !== ps.current || st.rolls === 0 || st.rolls < ps.rolls || view.over) {
        ui.held = new Set(); ui.keep = "";
      } else if (st.rolls !== ps.rolls || st.dice !== ps.dice) {
        ui.held = new Set();
        const used = new Set();
        for (const letter of ui.keep) {
          const i = [...st.dice].findIndex((d, k) => d === letter && !used.has(k));
          if (i >= 0) { used.add(i); ui.held.add(i); }
        }
        ui.keep = "";
      }
      if (view.version !== prev.version) ui.last = lastMoves(prev, view) || ui.last;
    }
    const legal = legalOf(view);
    if (ui.pile && !legal.takes.has(ui.pile)) { ui.pile = null; ui.hover = null; }
    const moved = !prev || prev.version !== view.version;
    prev = view;
    draw();
    if (moved) {
      const m = model();
      const res = view.over ? resultLines(m) : null;
      const dice = st.dice ? ` Dice: ${[...st.dice].map((l) => `${SYMBOLS[l].name} ${l}`).join(", ")}.` : "";
      announce(res ? `${res.headline} ${res.mine || ""}` : `${ui.last ? `${ui.last} ` : ""}${turnLine(m)}${dice}`);
    }
  }

  function lastMoves(before, after) {
    const out = [];
    after.state.seats.forEach((s, i) => {
      const old = before.state.seats[i];
      if (!old) return;
      const had = new Set(old.tiles.map((t) => t.tile));
      const name = after.seats[i] ? after.seats[i].name : s.name;
      for (const t of s.tiles) if (!had.has(t.tile)) out.push(`${name} took ${t.tile} at ${t.square}.${t.orient}`);
      if (s.tiles.length === old.tiles.length && s.turns > old.turns && i !== after.state.current) {
        out.push(`${name} passed`);
      }
    });
    return out.length ? `Last: ${out.join("; ")}.` : null;
  }

  live.addEventListener("view", (e) => onView(e.detail));
  live.addEventListener("refused", (e) => {
    busy = false;
    say(describeError(e.detail), "error");
    draw();
  });
  root.addEventListener("focusin", (e) => { if (e.target.dataset && e.target.dataset.focus) wantFocus = null; });

  document.addEventListener("keydown", (e) => {
    if (!live.view || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.repeat) return; // a held key is one press: holding Space must not use up every roll
    const target = e.target;
    const tag = target && target.tagName ? target.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "textarea" || tag === "select" || (target && target.isContentEditable)) return;
    const onControl = tag === "button" || tag === "a";
    if (/^[1-5]$/.test(e.key)) {
      const i = Number(e.key) - 1;
      const el = root.querySelector(`[data-die="${i}"]`);
      if (el && !el.disabled) { handlers.toggle(i); e.preventDefault(); }
    } else if (e.key === "r" || e.key === "R") {
      if (ui.pile) handlers.rotate(); else handlers.roll();
      e.preventDefault();
    } else if (e.key === " " && !onControl) {
      handlers.roll();
      e.preventDefault();
    } else if (e.key === "Escape" && ui.pile) {
      handlers.choose(null);
      e.preventDefault();
    }
  });

  onView(live.view);
}
