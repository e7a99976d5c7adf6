// The games' rule constants (rounds, alerts, dig sides, dice, rolls a turn, ...), as the
// content endpoint gives them under `rules` (GET /api/content/{game}, made by
// src/mummy/web/content.py from the engine's own constants). The pages never write them
// as literals; they read them here.

const cache = new WeakMap();

// The rules of `game` from its content: the endpoint's `rules`.
export function rulesOf(game, content) {
  if (!cache.has(content)) cache.set(content, Object.freeze({ ...content.rules }));
  return cache.get(content);
}
