// One map's drawing fetched when a page's content lacks it: the content the pages load
// holds the packaged maps only, and a game may be played on a generated map (gen-…) or on
// a custom map drawn in the editor (custom-…), which the server draws for whoever asks
// (GET /api/content/tomb/maps/{id}). The drawing is added to the content object itself,
// which every module of the page shares, so it is asked for once.
import { api } from "./api.js";

const asked = new Map();

// Resolves once every map of `ids` is in `content.maps`.
export function ensureMaps(content, ids) {
  const missing = [...new Set(ids)].filter((id) => id && !content.maps[id]);
  return Promise.all(missing.map((id) => {
    if (!asked.has(id)) {
      asked.set(id, api(`/api/content/tomb/maps/${encodeURIComponent(id)}`).catch((error) => {
        asked.delete(id); // asked again next time: the server may not have loaded the game yet
        throw error;
      }));
    }
    return asked.get(id).then((map) => { content.maps[id] = map; });
  }));
}

// The maps a Tomb view's sheets are played on.
export function mapsOfView(view) {
  return view && view.state && view.state.sheets ? view.state.sheets.map((s) => s.map) : [];
}
