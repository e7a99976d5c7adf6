// "Play it": a game on the map being edited, created as the start page creates one
// (POST /api/games) with the map's text (`map_text`, checked again by the server, T10):
// alone, or with other people (each gets a link) and bots, up to the Tomb's eight seats.
import { api, errorText, seats } from "../api.js";
import { $, h } from "../dom.js";

const BOTS = ["greedy", "strong", "random"];
const BOT_NAMES = ["Sphinx", "Anubis", "Horus", "Bastet", "Thoth", "Sobek", "Hathor", "Ptah"];
const MOST = 8;
const NAME_KEY = "mummy.name"; // the start page's: the name you last played under

let counter = 0;

function rows() { return [...$("play-seats").querySelectorAll("li")]; }

function say(text, kind = "error") {
  const el = $("play-message");
  el.textContent = text || "";
  el.className = text ? `message ${kind}` : "message";
}

function seatRow({ bot = "", name = "", you = false } = {}) {
  const n = ++counter;
  const nameInput = h("input", { id: `play-name-${n}`, class: "play-name", type: "text", maxlength: "40", autocomplete: "off", spellcheck: "false" });
  nameInput.value = name;
  const kind = h("select", { id: `play-kind-${n}`, class: "play-kind" },
    h("option", { value: "" }, "a person"), BOTS.map((b) => h("option", { value: b }, `a bot: ${b}`)));
  kind.value = bot;
  const remove = h("button", { type: "button", class: "play-remove" }, "Remove");
  const row = h("li", { class: "play-seat", "data-you": you ? "yes" : "no" },
    you ? h("span", { class: "play-who" }, "You") : h("label", { class: "play-who", for: kind.id }, "Seat"),
    you ? null : kind,
    h("label", { class: "sr-only", for: nameInput.id }, "Name"),
    nameInput,
    you ? null : remove);
  kind.addEventListener("change", () => {
    if (kind.value && !nameInput.value.trim()) {
      const taken = new Set(rows().map((r) => r.querySelector(".play-name").value.trim()));
      nameInput.value = BOT_NAMES.find((b) => !taken.has(b)) || "";
    }
    refresh();
  });
  remove.addEventListener("click", () => { row.remove(); refresh(); $("add-person").focus(); });
  return row;
}

function refresh() {
  const all = rows();
  all.forEach((row, i) => {
    const who = row.querySelector(".play-who");
    const input = row.querySelector(".play-name");
    if (row.dataset.you !== "yes") who.textContent = `Seat ${i + 1}`;
    input.placeholder = row.dataset.you === "yes" ? "your name" : `player ${i + 1}`;
    input.setAttribute("aria-label", row.dataset.you === "yes" ? "Your name" : `Seat ${i + 1}: name`);
    const kind = row.querySelector(".play-kind");
    if (kind) kind.setAttribute("aria-label", `Seat ${i + 1}: a person or a bot`);
    const remove = row.querySelector(".play-remove");
    if (remove) remove.setAttribute("aria-label", `Remove seat ${i + 1}`);
  });
  $("add-person").disabled = $("add-bot").disabled = all.length >= MOST;
}

function add(bot) {
  if (rows().length >= MOST) return;
  const row = seatRow();
  $("play-seats").append(row);
  const kind = row.querySelector(".play-kind");
  if (bot) {
    kind.value = bot;
    kind.dispatchEvent(new Event("change"));
  }
  refresh();
  kind.focus();
}

function remembered() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; }
}

// The list of seats, with the form's buttons wired; `mapText()` resolves to the map's text
// once checked valid, or to null.
export function setUpPlay({ mapText }) {
  $("play-seats").append(seatRow({ you: true, name: remembered() }));
  $("add-person").addEventListener("click", () => add(""));
  $("add-bot").addEventListener("click", () => add(BOTS[0]));
  refresh();
  $("play").addEventListener("click", async () => {
    const text = await mapText();
    if (text === null) {
      say("The map is not valid yet: fix the fault shown on the map first (T10).");
      return;
    }
    const body = {
      game: "tomb", mode: $("play-mode").value, map_text: text,
      seats: rows().map((row) => {
        const kind = row.querySelector(".play-kind");
        return { name: row.querySelector(".play-name").value.trim() || null, bot: (kind && kind.value) || null };
      }),
    };
    const me = body.seats[0];
    try { if (me.name) localStorage.setItem(NAME_KEY, me.name); } catch { /* not remembered */ }
    $("play").disabled = true;
    say("Creating the game…", "info");
    try {
      const created = await api("/api/games", { method: "POST", body });
      say("");
      showCreated(created);
    } catch (error) {
      say(errorText(error));
    } finally {
      $("play").disabled = false;
    }
  });
}

// Alone (bots aside): straight to the game. With other people: each one's link.
function showCreated(created) {
  const people = created.seats.filter((s) => s.token);
  const me = people[0];
  seats.add({ id: created.id, token: me.token, game: "tomb", seat: me.seat, name: me.name });
  if (people.length === 1) {
    location.assign(me.invite);
    return;
  }
  $("invite-list").replaceChildren(...people.map((seat, i) => {
    const url = location.origin + seat.invite;
    return h("li", { class: "invite", "data-seat": String(seat.seat) },
      h("div", {}, h("strong", {}, seat.name), ` · seat ${seat.seat + 1}`, i === 0 ? " (you, in this browser)" : ""),
      h("div", { class: "invite-url" }, h("a", { href: url }, url)));
  }));
  $("play-link").href = me.invite;
  $("play-link").textContent = `Play as ${me.name}`;
  $("invites").hidden = false;
  $("play-link").focus();
}
