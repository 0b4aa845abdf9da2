// Memories: search and filter the user's items by text, kind, tier, status and time.

import { enums, post } from "../api.js";
import { badge, h, num, table, when } from "../dom.js";
import { scope } from "../state.js";

function choices(name, label, values, selected) {
  return h("label", {}, label, h("select", { name },
    h("option", { value: "" }, "any"),
    values.map((v) => h("option", { value: v, selected: v === selected }, v))));
}

// the filters of the page's address as a POST /v1/memory/query body
export function queryOf(params) {
  const body = { scope: scope(), limit: Number(params.get("limit")) || 100 };
  if (params.get("contains")) body.contains = params.get("contains");
  for (const [param, field] of [["kind", "kinds"], ["tier", "tiers"], ["status", "statuses"]]) {
    if (params.get(param)) body[field] = [params.get(param)];
  }
  if (params.get("since")) body.since = `${params.get("since")}T00:00:00Z`;
  if (params.get("until")) body.until = `${params.get("until")}T23:59:59.999999Z`;
  return body;
}

export async function render(ctx) {
  const { kinds, tiers, statuses } = await enums();
  const p = ctx.params;
  const items = await post("/v1/memory/query", queryOf(p));
  const form = h("form", {
    class: "filters card",
    role: "search",
    onsubmit: (event) => {
      event.preventDefault();
      const data = new URLSearchParams();
      for (const [k, v] of new FormData(event.target)) if (v) data.set(k, v);
      location.hash = `#/memories?${data}`;
    },
  },
  h("label", {}, "Text", h("input", { type: "search", id: "memory-search", name: "contains",
    value: p.get("contains") || "", placeholder: "a word or phrase" })),
  choices("kind", "Kind", kinds, p.get("kind")),
  choices("tier", "Tier", tiers, p.get("tier")),
  choices("status", "Status", statuses, p.get("status")),
  h("label", {}, "From", h("input", { type: "date", name: "since", value: p.get("since") || "" })),
  h("label", {}, "To", h("input", { type: "date", name: "until", value: p.get("until") || "" })),
  h("button", { type: "submit" }, "Search"),
  h("a", { href: "#/memories" }, "Clear"));
  return h("div", {},
    h("h1", {}, "Memories"),
    h("p", { class: "muted" }, `${ctx.who}'s memories, newest first (every status unless one is chosen).`),
    form,
    h("p", { class: "muted", id: "memory-count" }, `${items.length} shown`),
    table([
      { title: "When", cell: (it) => when(it.occurred_at) },
      { title: "Memory", cell: (it) => h("a", { href: `#/memory/${encodeURIComponent(it.id)}` }, it.text) },
      { title: "Kind", cell: (it) => it.kind },
      { title: "Tier", cell: (it) => it.tier },
      { title: "Status", cell: (it) => badge(it.status) },
      { title: "Importance", num: true, cell: (it) => num(it.importance) },
      { title: "User", cell: (it) => it.scope.user_id || "–" },
    ], items, { empty: "No memory matches." }));
}
