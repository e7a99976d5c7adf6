// The printable sheets (/print?game=tomb&map=map1&paper=a4&seed=N): the same drawings as
// `mummy print` (the server's /api/print/*.svg), laid out as pages; the browser prints
// them, and the print stylesheet (css/print.css) puts each on a page of the paper chosen.
// The choices are kept in the address, so a printout can be linked to (the game page's
// Print button links here with its map and seed).
import { content, errorText } from "./api.js";
import { $, h } from "./dom.js";

function chosen() {
  return { game: $("game").value, map: $("map").value, paper: $("paper").value, seed: $("seed").value.trim() };
}

function address(c) {
  const q = new URLSearchParams({ game: c.game, paper: c.paper });
  if (c.game === "tomb") {
    q.set("map", c.map);
    if (c.seed) q.set("seed", c.seed);
  }
  return q;
}

async function show() {
  const c = chosen();
  const q = address(c);
  history.replaceState(null, "", `/print?${q}`);
  $("map-label").hidden = $("seed-label").hidden = c.game !== "tomb";
  const pages = $("pages");
  $("message").hidden = true;
  try {
    let urls;
    if (c.game === "tomb") {
      const sheet = new URLSearchParams({ map: c.map, paper: c.paper });
      if (c.seed) sheet.set("seed", c.seed);
      urls = [`/api/print/tomb.svg?${sheet}`];
    } else {
      const first = await fetch(`/api/print/treasure.svg?page=1&paper=${c.paper}`);
      if (!first.ok) throw new Error(`the printout did not load (HTTP ${first.status})`);
      const n = Number(first.headers.get("x-pages") || 1);
      urls = Array.from({ length: n }, (_, i) => `/api/print/treasure.svg?page=${i + 1}&paper=${c.paper}`);
    }
    const images = urls.map((src, i) => h("img", { src, alt: `${c.game === "tomb" ? "Player sheet" : "Printout"}, page ${i + 1}` }));
    const loaded = images.map((img) => new Promise((done, fail) => {
      img.addEventListener("load", done);
      img.addEventListener("error", () => fail(new Error("a sheet did not load: check the seed (a whole number)")));
    }));
    pages.replaceChildren(...images.map((img) => h("div", { class: `page ${c.paper}` }, img)));
    await Promise.all(loaded);
  } catch (error) {
    $("message").textContent = errorText(error);
    $("message").hidden = false;
  }
  $("app").dataset.ready = "yes";
}

async function main() {
  const q = new URLSearchParams(location.search);
  try {
    const tomb = await content("tomb");
    $("map").replaceChildren(...Object.values(tomb.maps).map((m) => h("option", { value: m.id }, m.title)));
    const map = q.get("map");
    if (map && !tomb.maps[map]) $("map").append(h("option", { value: map }, map)); // a generated map
  } catch (error) {
    $("message").textContent = errorText(error);
    $("message").hidden = false;
  }
  for (const name of ["game", "map", "paper"]) if (q.get(name)) $(name).value = q.get(name);
  if (q.get("seed")) $("seed").value = q.get("seed");
  for (const name of ["game", "map", "paper", "seed"]) $(name).addEventListener("change", show);
  $("print").addEventListener("click", () => window.print());
  await show();
}

main();
