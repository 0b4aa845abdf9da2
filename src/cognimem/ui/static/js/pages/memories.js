// Memories: search and filter the user's items by text, kind, tier, status and time; a
// user's page lists beside them the shared levels' items the user's reads reach (the
// organisation's, the namespace's, and an agent's when one is picked), and a shared
// level's page its own.

import { enums, post } from "../api.js";
import { badge, h, num, table, when } from "../dom.js";
import { scope, session, sharedLevel } from "../state.js";

function choices(name, label, values, selected) {
  return h("label", {}, label, h("select", { name },
    h("option", { value: "" }, "any"),
    values.map((v) => h("option", { value: v, selected: v === selected }, v))));
}

// the filters of the page's address as a POST /v1/memory/query body
export function queryOf(params) {
  const body = { scope: scope(), limit: Number(params.get("limit")) || 100 };
  if (sharedLevel()) body.shared = true;
  if (params.get("contains")) body.contains = params.get("contains");
  for (const [param, field] of [["kind", "kinds"], ["tier", "tiers"], ["status", "statuses"]]) {
    if (params.get(param)) body[field] = [params.get(param)];
  }
  if (params.get("since")) body.since = `${params.get("since")}T00:00:00Z`;
  if (params.get("until")) body.until = `${params.get("until")}T23:59:59.999999Z`;
  return body;
}

// whose memory an item is: a user's, an agent's, a namespace's or the organisation's
function levelOf(item) {
  if (item.scope.user_id) return `user ${item.scope.user_id}`;
  if (item.scope.agent_id) return `agent ${item.scope.agent_id}`;
  return item.scope.namespace === "*" ? "organisation" : `namespace ${item.scope.namespace}`;
}

function itemsTable(items) {
  return table([
    { title: "When", cell: (it) => when(it.occurred_at) },
    { title: "Memory", cell: (it) => h("a", { href: `#/memory/${encodeURIComponent(it.id)}` }, it.text) },
    { title: "Kind", cell: (it) => it.kind },
    { title: "Tier", cell: (it) => it.tier },
    { title: "Status", cell: (it) => badge(it.status) },
    { title: "Importance", num: true, cell: (it) => num(it.importance) },
    { title: "Level", cell: levelOf },
  ], items, { empty: "No memory matches." });
}

// the shared levels' items a user's reads reach, with the agent picked in ?agent=
async function sharedBeside(ctx, body) {
  const agent = ctx.params.get("agent");
  const reach = { ...body, shared: true, scope: { ...body.scope } };
  if (agent) reach.scope.agent_id = agent;
  const reached = await post("/v1/memory/query", reach);
  const agents = session.levels.filter(
    (l) => l.level === "agent" && l.namespace === body.scope.namespace);
  return h("section", { id: "shared-memories" },
    h("h2", {}, agent ? `Shared with ${ctx.who}'s reads with agent ${agent}`
      : `Shared with ${ctx.who}'s reads`),
    h("p", { class: "muted" }, "The organisation's memory, the namespace's, and an agent's in a read made with it: ",
      h("a", { href: "#/memories" }, "no agent"),
      ...agents.map((a) => [" · ", h("a", { href: `#/memories?agent=${encodeURIComponent(a.agent_id)}` },
        `agent ${a.agent_id}`)])),
    itemsTable(reached));
}

export async function render(ctx) {
  const { kinds, tiers, statuses } = await enums();
  const p = ctx.params;
  const body = queryOf(p);
  const items = await post("/v1/memory/query", body);
  const beside = body.scope.user_id ? await sharedBeside(ctx, body) : null;
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
    h("p", { class: "muted" }, sharedLevel()
      ? `${ctx.who}'s memory, with the shared levels every read of it carries, newest first.`
      : `${ctx.who}'s memories, newest first (every status unless one is chosen).`),
    form,
    h("p", { class: "muted", id: "memory-count" }, `${items.length} shown`),
    itemsTable(items),
    beside);
}
