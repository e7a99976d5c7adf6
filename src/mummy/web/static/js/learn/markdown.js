// The rules documents (static/rules/*.md, copies of the project's rulings) drawn as HTML
// elements, never as HTML text: the small part of Markdown they use (headings, lists that
// nest by indentation, tables, code blocks, `code`, *em*, **strong**). Every numbered rule
// ("- T3.3 …") becomes a list item with that id, and every rule named in the text (T3.2,
// R6) a link to it, so a rule can be found and linked by its id (/rules#T3.3).
import { h } from "../dom.js";

const RULE_ID = /^([TR]\d+(?:\.\d+)?)\.?\s/;
const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*|\b[TR]\d+(?:\.\d+)?\b)/g;

// A line of text with its inline marks, as nodes.
export function inline(text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const t = m[0];
    if (t.startsWith("`")) out.push(h("code", {}, t.slice(1, -1)));
    else if (t.startsWith("**")) out.push(h("strong", {}, inline(t.slice(2, -2))));
    else if (t.startsWith("*")) out.push(h("em", {}, t.slice(1, -1)));
    else out.push(h("a", { href: `#${t}`, class: "rule-ref" }, t));
    last = m.index + t.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const indentOf = (line) => line.length - line.trimStart().length;
const isBlockStart = (t) => t.startsWith("#") || t.startsWith("|") || t.startsWith("```") || t.startsWith("- ");

function table(rows) {
  const cells = (row) => row.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
  const [head, , ...body] = rows;
  return h("div", { class: "table-wrap" }, h("table", { class: "rules-table" },
    h("thead", {}, h("tr", {}, cells(head).map((c) => h("th", { scope: "col" }, inline(c))))),
    h("tbody", {}, body.map((r) => h("tr", {}, cells(r).map((c) => h("td", {}, inline(c))))))));
}

// One list item: its first line's text and the lines indented under it (dedented).
function listItem(first, rest) {
  const id = RULE_ID.exec(first);
  const body = parseBlocks([first.slice(id ? id[0].length : 0), ...rest]);
  if (!id) return h("li", {}, body);
  return h("li", { id: id[1], class: "rule", "data-rule": id[1] },
    h("a", { class: "rule-id", href: `#${id[1]}`, title: `Link to rule ${id[1]}` }, id[1]), " ", body);
}

// Lines to block elements. Lists collect their items' indented lines and parse them again,
// so a table or a code block inside a rule (T2.1, R1.3) is drawn inside it.
export function parseBlocks(lines) {
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const t = lines[i].trim();
    if (!t) { i++; continue; }
    if (t.startsWith("```")) {
      const start = ++i;
      while (i < lines.length && !lines[i].trim().startsWith("```")) i++;
      const base = indentOf(lines[start - 1]);
      out.push(h("pre", {}, h("code", {}, lines.slice(start, i).map((l) => l.slice(base)).join("\n"))));
      i++;
    } else if (t.startsWith("#")) {
      out.push(heading(t));
      i++;
    } else if (t.startsWith("|")) {
      const start = i;
      while (i < lines.length && lines[i].trim().startsWith("|")) i++;
      out.push(table(lines.slice(start, i)));
    } else if (t.startsWith("- ")) {
      const list = h("ul", {});
      const base = indentOf(lines[i]);
      while (i < lines.length && lines[i].trim().startsWith("- ") && indentOf(lines[i]) === base) {
        const first = lines[i].trim().slice(2);
        const rest = [];
        i++;
        // The item goes on while lines are indented under it (blank lines inside it too).
        while (i < lines.length && (indentOf(lines[i]) > base || !lines[i].trim())) {
          if (!lines[i].trim() && !(lines[i + 1] && indentOf(lines[i + 1]) > base && lines[i + 1].trim())) break;
          rest.push(lines[i].slice(base + 2));
          i++;
        }
        list.append(listItem(first, rest));
      }
      out.push(list);
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !(para.length && isBlockStart(lines[i].trim()))) para.push(lines[i++].trim());
      out.push(h("p", {}, inline(para.join(" "))));
    }
  }
  return out;
}

// "## T3. Placing a tile" -> <h3 id="T3">; the document's own title is left to the page.
function heading(t) {
  const level = t.match(/^#+/)[0].length;
  const text = t.slice(level).trim();
  const id = RULE_ID.exec(`${text} `);
  return h(`h${Math.min(level + 1, 6)}`, { id: id ? id[1] : null, class: id ? "rule-heading" : null }, inline(text));
}

// A rules document as sections, one per "## " heading (the preamble before the first is
// about the document, not the game, and is left out): [{id, title, nodes}].
export function ruleSections(markdown) {
  const lines = markdown.split("\n");
  const sections = [];
  let current = null;
  for (const line of lines) {
    if (line.startsWith("## ")) {
      const title = line.slice(3).trim();
      const id = RULE_ID.exec(`${title} `);
      current = { id: id ? id[1] : title, title, lines: [] };
      sections.push(current);
    } else if (current) {
      current.lines.push(line);
    }
  }
  return sections.map((s) => ({ id: s.id, title: s.title, nodes: parseBlocks(s.lines) }));
}

// Every numbered rule's text, by id ({"T3.2": "First tile of the game: …"}), for the
// tutorial's "why" (it shows the rules it cites).
export function ruleTexts(markdown) {
  const texts = {};
  let id = null;
  for (const line of markdown.split("\n")) {
    const m = /^- ([TR]\d+\.\d+) (.*)$/.exec(line);
    if (m) { id = m[1]; texts[id] = m[2]; continue; }
    if (id && /^ {2,}\S/.test(line) && !line.trim().startsWith("|") && !line.trim().startsWith("```")) texts[id] += ` ${line.trim()}`;
    else id = null;
  }
  return texts;
}
