// The dice companion (/companion?seed=N&players=P): the round's two dice for a table of
// paper players, each player's bought dice (T4.6), and a sheet's score check (T7). One
// answer from the server carries every round's dice and every player's bought dice, so
// once loaded the page needs no connection; only the score check asks the server (the
// engine scores, the page never does). Where the table is (round, dice bought) is kept
// in this browser for the seed, so a reload or a locked phone loses nothing.
import { api, errorText } from "./api.js";
import { $, h } from "./dom.js";
import { dieFace } from "./tomb/draw.js";

const MAX_PLAYERS = 8;

function say(text) {
  const m = $("message");
  m.textContent = text || "";
  m.hidden = !text;
}

function setup() {
  $("setup").hidden = false;
  $("seed").value = String(crypto.getRandomValues(new Uint32Array(1))[0] % 1000000);
  for (let n = 1; n <= MAX_PLAYERS; n++) $("players").append(h("option", { value: n }, String(n)));
  $("setup-form").addEventListener("submit", (e) => {
    e.preventDefault();
    location.search = `?seed=${encodeURIComponent($("seed").value.trim())}&players=${$("players").value}`;
  });
  $("seed").focus();
}

class Table {
  constructor(data, players) {
    this.data = data;
    this.players = players;
    this.key = `mummy.companion.${data.seed}.${players}`;
    const kept = JSON.parse(localStorage.getItem(this.key) || "null") || {};
    this.round = Math.min(Math.max(kept.round || 1, 1), data.rounds.length);
    this.bought = Array.from({ length: players }, (_, i) => (kept.bought && kept.bought[i]) || 0);
    this.last = null; // [player, k] of the die shown in the bought line
  }

  keep() {
    try { localStorage.setItem(this.key, JSON.stringify({ round: this.round, bought: this.bought })); } catch { /* private mode: kept for this visit only */ }
  }

  go(step) {
    this.round = Math.min(Math.max(this.round + step, 1), this.data.rounds.length);
    this.last = null;
    this.keep();
    this.draw();
  }

  buy(player) {
    const k = this.bought[player];
    if (k >= this.data.bought[player].length) return;
    this.bought[player] = k + 1;
    this.last = [player, k];
    this.keep();
    this.draw();
  }

  draw() {
    const [a, b] = this.data.rounds[this.round - 1];
    const total = this.data.rounds.length;
    $("round-title").textContent = `Round ${this.round} of ${total}`;
    $("dice").setAttribute("aria-label", `The round's dice: ${a} and ${b}`);
    $("dice").replaceChildren(dieFace(a, { size: 150 }), dieFace(b, { size: 150 }));
    $("prev").disabled = this.round === 1;
    $("next").disabled = this.round === total;
    $("next").textContent = this.round === total ? "Last round: score your sheets" : "Next round ▶";
    $("buyers").replaceChildren(...this.bought.map((n, i) => h("button", { type: "button", "data-player": i + 1,
      onclick: () => this.buy(i) }, this.players === 1 ? "Buy a die" : `Player ${i + 1} buys`,
      n ? h("span", { class: "muted" }, ` (${n} so far)`) : null)));
    if (this.last) {
      const [p, k] = this.last;
      const face = this.data.bought[p][k];
      $("bought").replaceChildren(dieFace(face, { size: 72 }),
        h("span", {}, `${this.players === 1 ? "Your" : `Player ${p + 1}'s`} bought die #${k + 1}: `, h("strong", {}, String(face))));
    } else {
      $("bought").replaceChildren();
    }
  }
}

function checkForm(data) {
  const form = $("check-form");
  const maps = h("select", { id: "check-map", name: "map" }, ...data.maps.map((m) => h("option", { value: m.id }, m.title)));
  const fields = data.form.map(({ name, hint }) => {
    const yesNo = name === "key_track_full" || name === "skeleton_key";
    const input = yesNo ? h("input", { type: "checkbox", id: `f-${name}`, name })
      : h("input", { id: `f-${name}`, name, inputmode: name === "hits" ? "text" : "numeric",
        autocomplete: "off", placeholder: name === "hits" ? "e.g. 15 10 14" : "0" });
    return h("label", { class: yesNo ? "check yes-no" : "check" }, input, h("span", {}, hint.replace(" (y/n)", "")));
  });
  form.replaceChildren(h("label", { class: "check" }, maps, h("span", {}, "the map played")), ...fields,
    h("label", { class: "check" }, h("input", { id: "f-total", name: "total", inputmode: "numeric", placeholder: "optional" }),
      h("span", {}, "the total you wrote, to check your sums")),
    h("button", { type: "submit", class: "primary" }, "Check"));
  form.addEventListener("submit", (e) => { e.preventDefault(); check(data); });
}

function tallyOf(data) {
  const tally = {};
  for (const { name } of data.form) {
    const input = $(`f-${name}`);
    if (input.type === "checkbox") tally[name] = input.checked;
    else if (name === "hits") tally[name] = input.value.split(/[\s,]+/).filter(Boolean).map(Number);
    else tally[name] = Number(input.value || 0);
  }
  return tally;
}

async function check(data) {
  const out = $("check-result");
  const body = { map: $("check-map").value, tally: tallyOf(data) };
  if ($("f-total").value.trim()) body.total = Number($("f-total").value);
  try {
    const got = await api("/api/companion/tomb/score", { method: "POST", body });
    const rows = Object.entries(got.lines).map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, data.lines[k]), h("td", {}, String(v))));
    out.replaceChildren(
      h("table", { class: "score-check" }, h("tbody", {}, ...rows,
        h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"), h("td", {}, String(got.total))))),
      h("p", {}, got.achievements.length ? `Achievements: ${got.achievements.join(", ")}.` : "No achievement (each needs 180 or more, T7)."),
      ...[...got.faults, ...got.differences].map((f) => h("p", { class: "message error" }, f)));
  } catch (error) {
    out.replaceChildren(h("p", { class: "message error" },
      navigator.onLine === false ? "Checking needs the connection (the engine scores); your answers stay here." : errorText(error)));
  }
}

async function main() {
  const params = new URLSearchParams(location.search);
  const seed = params.get("seed");
  const players = Math.min(Math.max(Number(params.get("players") || 1), 1), MAX_PLAYERS);
  if (seed === null) {
    setup();
  } else {
    try {
      const data = await api(`/api/companion/tomb?seed=${encodeURIComponent(seed)}&players=${players}`);
      const table = new Table(data, players);
      $("table").hidden = false;
      $("seed-shown").textContent = data.seed;
      $("share").href = `/companion?seed=${data.seed}&players=${players}`;
      $("prev").addEventListener("click", () => table.go(-1));
      $("next").addEventListener("click", () => table.go(1));
      document.addEventListener("keydown", (e) => {
        if (e.target.closest("input, select, textarea, summary, button")) return;
        if (e.key === "ArrowRight" || e.key === " ") { e.preventDefault(); table.go(1); }
        if (e.key === "ArrowLeft") table.go(-1);
      });
      checkForm(data);
      table.draw();
    } catch (error) {
      say(errorText(error));
    }
  }
  $("app").dataset.ready = "yes";
}

main();
