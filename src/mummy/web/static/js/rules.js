// The rules page, /rules: both games' rules as the engine implements them, numbered as its
// messages name them (/rules#T3.3 opens at that rule), a search over them, and a legend of
// every picture on the game pages. The game page's header links here in a new tab, so the
// game keeps its place.
import { $, asset, h } from "./dom.js";
import { ruleSections } from "./learn/markdown.js";
import { tombLegend, treasureLegend } from "./learn/legend.js";

const GAMES = ["tomb", "treasure"];

async function rulesText(game) {
  const response = await fetch(asset(`/static/rules/${game}.md`));
  if (!response.ok) throw new Error(`the ${game} rules could not be loaded (HTTP ${response.status})`);
  return response.text();
}

function drawRules(game, markdown) {
  const body = $(`${game}-rules-body`);
  body.replaceChildren(...ruleSections(markdown).map((s) =>
    h("section", { class: "rule-section", "data-section": s.id }, h("h4", { id: s.id }, s.title), ...s.nodes)));
}

// The rule (or section) the address names, scrolled to and marked; the mark follows the
// address as links inside the page are followed.
function showTarget() {
  document.querySelectorAll(".is-target").forEach((e) => e.classList.remove("is-target"));
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (!target) return;
  const item = target.closest("li.rule, .rule-section") || target;
  item.classList.add("is-target");
  target.scrollIntoView({ block: "start" });
}

// The search: a rule id ("T3", "t3.3") keeps the rules it starts; words keep the rules
// that hold them. Sections with nothing left fold away.
function search(query) {
  const q = query.trim().toLowerCase();
  const byId = /^[tr]\d+(\.\d*)?$/.test(q);
  let count = 0;
  for (const section of document.querySelectorAll(".rule-section")) {
    let any = false;
    for (const rule of section.querySelectorAll("li.rule")) {
      const hit = !q || (byId ? rule.id.toLowerCase().startsWith(q) : rule.textContent.toLowerCase().includes(q));
      rule.hidden = !hit;
      if (hit) { any = true; count += 1; }
    }
    // Tables and text outside numbered rules (Map 1, the Tile Table) show when they hold the words.
    for (const block of section.querySelectorAll(":scope > p, :scope > .table-wrap, :scope > pre")) {
      const hit = !q || (!byId && block.textContent.toLowerCase().includes(q));
      block.hidden = !hit;
      any ||= hit;
    }
    section.hidden = Boolean(q) && !any && !section.dataset.section.toLowerCase().startsWith(q);
  }
  $("rules-count").textContent = q ? `${count} rule${count === 1 ? "" : "s"} found` : "";
  document.querySelectorAll(".game-rules [id$='-legend']").forEach((e) => { e.hidden = Boolean(q); });
}

async function main() {
  $("tomb-legend-body").append(tombLegend());
  $("treasure-legend-body").append(treasureLegend());
  try {
    const texts = await Promise.all(GAMES.map(rulesText));
    GAMES.forEach((game, i) => drawRules(game, texts[i]));
  } catch (error) {
    const line = $("rules-message");
    line.textContent = String(error.message || error);
    line.hidden = false;
  }
  $("rules-search").addEventListener("input", (e) => search(e.target.value));
  window.addEventListener("hashchange", showTarget);
  showTarget();
  $("app").dataset.ready = "yes";
}

main();
