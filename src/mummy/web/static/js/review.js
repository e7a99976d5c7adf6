// The Review view of the replay page (docs/analysis.md §6): every decision of a seat valued
// by the strongest bot (POST /api/games/{id}/review?player=N starts it, or answers the one
// the server has; its progress is asked for until it is done), the three biggest mistakes
// stepped through on the replay with the better move drawn on the sheet (the game page's
// preview drawing: each game module's `drawMoveOn`, named in games.js), and a chart of
// what was lost by round (Tomb) or turn (Treasure), in inline SVG.
import { ApiError, api, errorText, seats } from "./api.js";
import { $, h, svg } from "./dom.js";
import { loadModule } from "./games.js";
import { PAR_MEANING, parLine } from "./par.js";

const POLL = 1000; // ms between two asks while the review is worked out

// Replace an element's children with these, leaving out the empty ones (null, "").
const fill = (el, ...kids) => el.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false && k !== ""));

const UNIT = { points: ["point", "points"], turns: ["expected turn", "expected turns"] };
const amount = (n, unit) => `${n} ${(UNIT[unit] || [unit, unit])[n === 1 ? 0 : 1]}`;

// When a decision was made, in the game's words.
function when(d) {
  if (d.turn !== undefined) return `Turn ${d.turn}, roll ${d.roll} (dice ${d.dice})`;
  return d.group === "end" ? "After round 20" : `Round ${d.round}`;
}

// -- the chart -------------------------------------------------------------------------------
// A bar per round or turn, one under the other (readable at a phone's width too), with
// what was lost written at its end; the biggest mistakes' bars in orange, numbered.
export function lossChart(review) {
  const groups = review.lost_by_group;
  const top = Math.max(...groups.map((g) => g.lost), 0.01);
  const byRound = review.unit === "points";
  const W = 400;
  const row = 18;
  const left = 54;
  const head = 22;
  const room = W - left - 70; // the longest bar, leaving room for its value and number
  const H = head + groups.length * row + 4;
  const marked = new Map(review.mistakes.map((i, n) => [review.decisions[i].group, n + 1]));
  const unit = byRound ? "points" : "expected turns";
  const words = groups.filter((g) => g.lost > 0).map((g) => `${g.group === "end" ? "after round 20" : g.group}: ${g.lost}`);
  const text = (x, y, content, attrs = {}) => svg("text", { x, y, "font-size": 13, fill: "#4a4437", ...attrs }, content);
  const chart = svg("svg", { class: "loss-chart", id: "review-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": `${byRound ? "Points" : "Expected turns"} lost by ${byRound ? "round" : "turn"}: `
      + (words.length ? words.join(", ") : "nothing lost") },
  text(left - 6, 15, byRound ? "Round" : "Turn", { "text-anchor": "end", "font-weight": 700 }),
  text(left + 4, 15, `${unit} lost`, { "font-weight": 700 }),
  svg("line", { x1: left, y1: head - 4, x2: left, y2: H - 2, stroke: "#5e5748", "stroke-width": 1 }));
  groups.forEach((g, i) => {
    const y = head + i * row;
    const width = g.lost > 0 ? Math.max(2, (g.lost / top) * room) : 0;
    const n = marked.get(g.group);
    chart.append(text(left - 6, y + 13, g.group, { "text-anchor": "end" }),
      svg("rect", { x: left + 1, y: y + 2, width, height: row - 5, rx: 2, class: n ? "bar mistake" : "bar", "data-group": g.group,
        fill: n ? "#d55e00" : "#0072b2" },
      svg("title", {}, `${g.group === "end" ? "After round 20" : `${byRound ? "Round" : "Turn"} ${g.group}`}: ${g.lost} ${unit} lost`)));
    if (g.lost > 0) chart.append(text(left + width + 5, y + 13, String(g.lost), n ? { "font-weight": 700, fill: "#8c3d00" } : {}));
    if (n) {
      const x = left + width + 5 + String(g.lost).length * 8 + 12;
      chart.append(svg("circle", { cx: x, cy: y + 8.5, r: 8, fill: "#d55e00" }),
        text(x, y + 13, String(n), { "text-anchor": "middle", fill: "#fff", "font-weight": 700, "font-size": 12 }));
    }
  });
  return chart;
}

// -- the panel -------------------------------------------------------------------------------
class Review {
  constructor(opts) {
    Object.assign(this, opts); // view, names, goto(step), shown(), board, content, state(step)
    this.player = this.defaultPlayer();
    this.review = null;
    this.at = -1; // the mistake shown (its number among the three), -1 none
    this.look = "better"; // which move the sheet shows: "better" or "chosen"
    this.panel = $("review");
    this.body = $("review-body");
    this.more = $("review-more"); // the mistake's words and the chart: after the board
    this.timer = null;
  }

  // The seat this browser holds in the game, else the first person's.
  defaultPlayer() {
    const mine = seats.all().find((s) => s.id === this.view.id);
    if (mine && mine.seat < this.view.seats.length) return mine.seat;
    const person = this.view.seats.findIndex((s) => !s.bot);
    return person >= 0 ? person : 0;
  }

  path() { return `/api/games/${encodeURIComponent(this.view.id)}/review?player=${this.player}`; }

  open() {
    this.panel.hidden = false;
    $("app").classList.add("reviewing"); // beside the board on a wide screen (css/review.css)
    $("review-open").setAttribute("aria-expanded", "true");
    this.start();
  }

  playerChoice() {
    if (this.view.seats.length < 2) return null;
    const select = h("select", { id: "review-player" },
      this.view.seats.map((s, i) => h("option", { value: String(i) }, `${this.names[i]}${s.bot ? ` (${s.bot} bot)` : ""}`)));
    select.value = String(this.player);
    select.addEventListener("change", () => { this.player = Number(select.value); this.start(); });
    return h("p", { class: "row" }, h("label", { for: "review-player" }, "Whose play:"), select);
  }

  async start() {
    clearTimeout(this.timer);
    this.more.hidden = true;
    this.review = null;
    this.at = -1;
    this.undecorate();
    this.progress({ status: "queued", done: 0, total: 0 });
    await this.ask("POST");
  }

  async ask(method) {
    const player = this.player;
    let answer;
    try {
      // A seat's token, when this browser holds one: a player's review goes first.
      const mine = seats.all().find((s) => s.id === this.view.id);
      answer = await api(this.path(), { method, token: mine ? mine.token : undefined });
    } catch (error) {
      if (player !== this.player) return;
      const busy = error instanceof ApiError && error.status === 503;
      fill(this.body, this.playerChoice(), h("p", { class: "message error", id: "review-error" }, errorText(error)),
        busy ? h("button", { type: "button", onclick: () => this.start() }, "Try again") : null);
      return;
    }
    if (player !== this.player) return; // another seat was chosen meanwhile
    if (answer.status === "done") {
      this.review = answer.review;
      this.drawReview();
    } else {
      this.progress(answer);
      this.timer = setTimeout(() => this.ask("GET"), POLL);
    }
  }

  progress(status) {
    const label = status.status === "running" && status.total
      ? `Reviewing every decision: ${status.done} of ${status.total}…`
      : status.ahead ? `Waiting for the reviewer (${status.ahead} before this one)…` : "Starting the review…";
    const bar = h("progress", { id: "review-progress", max: String(status.total || 1), value: String(status.done || 0), "aria-label": "Review progress" });
    fill(this.body, this.playerChoice(), h("p", { class: "review-wait", role: "status" }, label), bar);
    this.panel.dataset.state = "working";
  }

  drawReview() {
    const r = this.review;
    const unit = r.unit;
    const summary = `${r.decisions.length} decisions, ${r.mistake_count} ${r.mistake_count === 1 ? "mistake" : "mistakes"} `
      + `of ${amount(r.threshold, unit)} or more, ${amount(r.total_lost, unit)} lost in all (the ${r.bot} bot's values).`;
    const par = this.view.par && this.player === 0 && this.view.seats.length === 1 ? this.view.par : null;
    const list = h("ol", { class: "mistakes", id: "review-mistakes" }, r.mistakes.map((index, n) => {
      const d = r.decisions[index];
      return h("li", {}, h("button", { type: "button", class: "mistake", "data-mistake": String(n), "data-step": String(d.step),
        "aria-pressed": "false", onclick: () => this.show(n) }, `${n + 1}. ${when(d)}: ${amount(d.lost, unit)} lost`));
    }));
    const look = (which, label) => h("button", { type: "button", class: "look", "data-look": which,
      "aria-pressed": this.look === which ? "true" : "false", onclick: () => this.setLook(which) }, label);
    fill(this.body,
      this.playerChoice(),
      par ? h("p", { class: "review-par", title: PAR_MEANING }, parLine(par)) : null,
      h("p", { class: "review-summary", id: "review-summary" }, summary),
      r.mistakes.length ? [h("h3", {}, "The biggest mistakes"), list,
        h("div", { class: "row review-nav" },
          h("button", { type: "button", id: "review-prev", onclick: () => this.show(this.at - 1) }, "◀ Previous"),
          h("button", { type: "button", id: "review-next", class: "primary", onclick: () => this.show(this.at + 1) }, "Next mistake ▶")),
        h("div", { class: "row review-looks", role: "group", "aria-label": "What the sheet shows" },
          h("span", { class: "muted" }, "On the sheet:"), look("better", "The better move"), look("chosen", "Your move"))]
        : h("p", { class: "review-clean", id: "review-clean" }, `No mistake of ${amount(r.threshold, unit)} or more: the ${r.bot} bot would have played the same.`));
    fill(this.more,
      r.mistakes.length ? h("div", { class: "review-detail", id: "review-detail", "aria-live": "polite" }) : null,
      h("figure", { class: "review-figure" }, lossChart(r),
        h("figcaption", { class: "muted" }, `What each ${unit === "points" ? "round" : "turn"}'s decisions lost against the ${r.bot} bot's; `
          + "the numbered bars hold the biggest mistakes.")));
    this.more.hidden = false;
    this.panel.dataset.state = "done";
    this.syncButtons();
    if (r.mistakes.length) this.show(0);
  }

  setLook(which) {
    this.look = which;
    for (const b of this.body.querySelectorAll("button.look")) b.setAttribute("aria-pressed", b.dataset.look === which ? "true" : "false");
    if (this.at >= 0) this.decorate(this.shown());
  }

  // Mistake `n` (0 to 2): the replay goes to the step where the decision began, and the
  // sheet shows the better move (or the player's own), its words beside.
  show(n) {
    const r = this.review;
    if (!r || n < 0 || n >= r.mistakes.length) return;
    this.at = n;
    const d = r.decisions[r.mistakes[n]];
    this.syncButtons();
    this.drawDetail(d);
    this.goto(d.step);
    if (this.shown() === d.step) this.decorate(d.step);
  }

  syncButtons() {
    for (const b of this.body.querySelectorAll("button.mistake")) b.setAttribute("aria-pressed", b.dataset.mistake === String(this.at) ? "true" : "false");
    const prev = $("review-prev");
    const next = $("review-next");
    if (prev) prev.disabled = this.at <= 0;
    if (next) next.disabled = this.at >= this.review.mistakes.length - 1;
    this.panel.dataset.mistake = String(this.at);
  }

  drawDetail(d) {
    const unit = this.review.unit;
    const move = (which, title) => h("div", { class: `move ${which}`, "data-move": which },
      h("h4", {}, title, h("span", { class: "muted" }, ` (worth ${d[which].worth} ${unit === "points" ? "points" : "turns in all"})`)),
      h("ol", {}, (d[which].sentences || d[which].actions).map((s) => h("li", {}, s))));
    $("review-detail").replaceChildren(
      h("h3", {}, `${this.at + 1}. ${when(d)}: ${amount(d.lost, unit)} lost`),
      move("chosen", "You played"), move("best", "Better"),
      h("p", { class: "muted small" }, `Step ${d.step} of the replay: the position before the decision. Step on (→) to see what followed.`));
  }

  // After the replay has drawn a step: the mistake's move over the reviewed seat's sheet,
  // when the step is the one its decision began at.
  decorate(step) {
    const r = this.review;
    if (!r || this.at < 0) return;
    const d = r.decisions[r.mistakes[this.at]];
    if (step !== d.step || !this.mover) return;
    const move = this.look === "better" ? d.best : d.chosen;
    const drawn = this.mover(this.board, this.player, move.json, this.content, this.state(), this.look);
    this.board.dataset.review = this.look;
    this.board.dataset.reviewDrawn = String(drawn);
  }

  undecorate() {
    delete this.board.dataset.review;
  }
}

// The Review view on the replay page (once the replay is shown): the button that opens it,
// and the hook the replay calls after drawing each step (`drawn(step)`).
export async function mountReview(opts) {
  const module = await loadModule(opts.view.game).catch(() => null);
  const review = new Review({ ...opts, mover: module && module.drawMoveOn ? module.drawMoveOn : null });
  window.mummyReview = review; // for tests and the curious
  const button = $("review-open");
  button.hidden = false;
  button.addEventListener("click", () => {
    if (review.panel.hidden) review.open();
    else {
      review.panel.hidden = review.more.hidden = true;
      button.setAttribute("aria-expanded", "false");
      $("app").classList.remove("reviewing");
    }
  });
  return { drawn: (step) => { if (!review.panel.hidden) review.decorate(step); } };
}
