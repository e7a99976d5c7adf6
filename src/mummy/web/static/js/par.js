// Par in words (docs/analysis.md): the strongest bot's result on a game's own dice, and
// the player's against it, as the server stores it with a finished solo game's result
// (`view.par`, "my games" `result.par`, the day's board by par): {par, score, result,
// unit ("points" or "turns"), better, bot, effort}. `result` is positive when the player
// did better than the bot, in either game. The results screen, the start page and the
// replay's review all say it the same way.
import { api } from "./api.js";
import { svg } from "./dom.js";

const ONE = { points: "point", turns: "turn" };
const amount = (n, unit) => `${n} ${n === 1 ? ONE[unit] || unit : unit}`;

// "+12", "−18", "0": a result against par as a board shows it.
export function signed(n) {
  if (n === null || n === undefined) return "—";
  return n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : "0";
}

// "18 points behind the expert bot", "2 turns better than the exact bot".
export function against(par) {
  if (par.result === 0) return `level with the ${par.bot} bot`;
  return `${amount(Math.abs(par.result), par.unit)} ${par.result > 0 ? "better than" : "behind"} the ${par.bot} bot`;
}

// The whole line: "143, par 161 on these dice: 18 points behind the expert bot."
export function parLine(par) {
  if (par.par === null || par.par === undefined) return `Par: the ${par.bot} bot did not fill its site on these dice (R4.3).`;
  if (par.result === null || par.result === undefined) {
    return `Par ${amount(par.par, par.unit)} on these dice (the ${par.bot} bot); an unfinished game has no result against it.`;
  }
  const score = par.unit === "points" ? String(par.score) : amount(par.score, par.unit);
  return `${score}, par ${par.par} on these dice: ${against(par)}.`;
}

// What par is, for a tooltip or a note under the line.
export const PAR_MEANING = "Par is what the strongest bot scores playing the very same dice: the luck is in both numbers alike, "
  + "so the difference is about play.";

// Whether a finished view has (or will have) a par: a person's solo game.
export const hasPar = (view) => view.seats.length === 1 && !view.seats[0].bot;

// How a par under way reads: "being computed (round 5 of 20)…", "waiting for 2 other games…".
export function pendingText(status) {
  if (status.status === "running") {
    return `Par: being computed (the strongest bot is playing these dice${status.total ? `, ${status.done} of ${status.total}` : ""})…`;
  }
  if (status.status === "queued") {
    return `Par: being computed soon${status.ahead ? ` (${status.ahead} ${status.ahead === 1 ? "game" : "games"} before this one)` : ""}…`;
  }
  if (status.status === "busy") return `Par: not worked out now — ${status.message}`;
  return "Par: being computed…";
}

// Follow a finished solo game's par until it is known: asks the server once (queueing it
// if nothing is under way, after a restart or a full queue), then every few seconds for
// its progress; `show(status)` each time, the last with status "done" and `par`. Stops
// when `stop()` says so (the view brought par) or the par is known. Returns a canceller.
export function followPar(gameId, show, stop = () => false, every = 2500) {
  let timer = null;
  let cancelled = false;
  const path = `/api/games/${encodeURIComponent(gameId)}/par`;
  const ask = async (method) => {
    if (cancelled || stop()) return;
    let status;
    try {
      status = await api(path, { method });
    } catch (error) {
      status = { status: "busy", message: error.message };
    }
    if (cancelled || stop()) return;
    show(status);
    if (status.status === "queued" || status.status === "running") timer = setTimeout(() => ask("GET"), every);
  };
  ask("POST");
  return () => { cancelled = true; clearTimeout(timer); };
}

// A light bulb, drawn (no emoji font is needed): the mark of hints.
export function bulb(cls = "bulb") {
  return svg("svg", { class: cls, viewBox: "0 0 24 24", width: 16, height: 16, "aria-hidden": "true" },
    svg("path", { d: "M12 2.5a6.5 6.5 0 0 0-3.8 11.8c.8.6 1.3 1.5 1.3 2.5v.7h5v-.7c0-1 .5-1.9 1.3-2.5A6.5 6.5 0 0 0 12 2.5z",
      fill: "#f0e442", stroke: "#5e4a00", "stroke-width": 1.6, "stroke-linejoin": "round" }),
    svg("path", { d: "M9.5 19.5h5M10.3 21.7h3.4", stroke: "#5e4a00", "stroke-width": 1.6, "stroke-linecap": "round" }));
}
