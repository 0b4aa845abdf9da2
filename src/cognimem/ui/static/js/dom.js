// Small DOM helpers: build elements without innerHTML (every text is escaped by the
// browser), format numbers and times, render tables.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(name, "");
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

export function num(value, digits = 2) {
  return typeof value === "number" ? value.toFixed(digits) : "–";
}

// "1 memory", "2 memories": a count with its noun in the right number
export function count(n, noun, plural = `${noun}s`) {
  return `${n} ${n === 1 ? noun : plural}`;
}

export function when(iso) {
  if (!iso) return "–";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toISOString().replace("T", " ").slice(0, 19) + " UTC";
}

export function ago(iso, now = Date.now()) {
  if (!iso) return "never";
  const days = (now - new Date(iso).getTime()) / 86_400_000;
  if (days < 1 / 24) return "just now";
  if (days < 1) return `${Math.round(days * 24)} h ago`;
  return `${count(Math.round(days), "day")} ago`;
}

export function badge(text) {
  return h("span", { class: `badge ${text}` }, text);
}

export function bar(fraction, label) {
  const pct = Math.max(0, Math.min(1, fraction || 0)) * 100;
  const fill = h("span", {});
  fill.style.width = `${pct.toFixed(0)}%`; // CSSOM, which the page's CSP allows (a style attribute it refuses)
  return h("span", { class: "bar", role: "img", "aria-label": label || `${pct.toFixed(0)}%` }, fill);
}

// columns: [{title, cell: (row, index) => node|string, num?: bool}]; rows: array
export function table(columns, rows, { caption, rowClass, empty = "Nothing here." } = {}) {
  if (!rows.length) return h("p", { class: "muted" }, empty);
  return h("table", {},
    caption ? h("caption", { class: "muted" }, caption) : null,
    h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col", class: c.num ? "num" : null }, c.title)))),
    h("tbody", {}, rows.map((row, i) => h("tr", { class: rowClass ? rowClass(row) : null },
      columns.map((c) => h("td", { class: c.num ? "num" : null }, c.cell(row, i)))))));
}

export function props(pairs) {
  return h("dl", { class: "props" },
    pairs.filter(([, v]) => v !== undefined).map(([k, v]) => [h("dt", {}, k), h("dd", {}, v ?? "–")]));
}

export function signals(map) {
  const entries = Object.entries(map || {});
  if (!entries.length) return h("span", { class: "muted" }, "–");
  return h("span", { class: "signals" }, entries.map(([k, v]) => h("span", {}, `${k} ${num(v)}`)));
}

export function errorBox(error) {
  const field = error.field ? ` (field: ${error.field})` : "";
  return h("div", { class: "error", role: "alert" }, `${error.type || "Error"}: ${error.message}${field}`);
}

// the #/page?x=1 part of the location: [page path, URLSearchParams]
export function route() {
  const raw = location.hash.replace(/^#\/?/, "");
  const [path, query = ""] = raw.split("?");
  return [path, new URLSearchParams(query)];
}
