// Entities: pick one, see the graph of entities and relations around it (two hops),
// its aliases with their sources, and the edges as a table.

import { post } from "../api.js";
import { h, num, svg, table } from "../dom.js";
import { scope } from "../state.js";

const WIDTH = 900;
const HEIGHT = 520;
const MAX_NODES = 40;

function layout(centerId, edges) {
  // the chosen entity in the middle, its neighbours on a ring, theirs on an outer ring
  const ring1 = [];
  const ring2 = [];
  const seen = new Set([centerId]);
  for (const e of edges) {
    for (const [a, b] of [[e.source_entity_id, e.target_entity_id], [e.target_entity_id, e.source_entity_id]]) {
      if (a === centerId && !seen.has(b)) { seen.add(b); ring1.push(b); }
    }
  }
  for (const e of edges) {
    for (const id of [e.source_entity_id, e.target_entity_id]) {
      if (!seen.has(id) && seen.size < MAX_NODES) { seen.add(id); ring2.push(id); }
    }
  }
  const at = new Map([[centerId, [WIDTH / 2, HEIGHT / 2]]]);
  const place = (ids, radius, turn) => ids.forEach((id, i) => {
    const angle = turn + (2 * Math.PI * i) / Math.max(ids.length, 1);
    at.set(id, [WIDTH / 2 + radius * 1.6 * Math.cos(angle), HEIGHT / 2 + radius * Math.sin(angle)]);
  });
  place(ring1, 140, -Math.PI / 2);
  place(ring2, 235, -Math.PI / 2 + 0.3);
  return at;
}

function graph(center, edges, names) {
  const at = layout(center.id, edges);
  const shown = edges.filter((e) => at.has(e.source_entity_id) && at.has(e.target_entity_id));
  return svg("svg", { class: "graph", id: "graph", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "group",
    "aria-label": `Graph around ${center.name}` },
  shown.map((e) => {
    const [x1, y1] = at.get(e.source_entity_id);
    const [x2, y2] = at.get(e.target_entity_id);
    return svg("g", {},
      svg("line", { x1, y1, x2, y2 }),
      svg("text", { class: "edge", x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 4, "text-anchor": "middle" }, e.relation));
  }),
  [...at.entries()].map(([id, [x, y]]) => svg("a", {
    href: `#/entities/${encodeURIComponent(id)}`, class: id === center.id ? "center node" : "node",
    "aria-label": names.get(id) || id,
  },
  svg("circle", { cx: x, cy: y, r: id === center.id ? 16 : 11 }),
  svg("text", { x, y: y + (id === center.id ? 32 : 26), "text-anchor": "middle" }, names.get(id) || id))));
}

export async function render(ctx) {
  const found = await post("/v1/entities/query", { scope: scope() });
  const names = new Map(found.map(({ entity }) => [entity.id, entity.name]));
  const filter = h("input", { type: "search", id: "entity-filter", placeholder: "filter by name or alias",
    "aria-label": "Filter entities" });
  const list = h("ul", { class: "entity-list", id: "entity-list" }, found
    .slice().sort((a, b) => a.entity.name.localeCompare(b.entity.name))
    .map(({ entity, aliases }) => h("li", { dataset: { names: [entity.name, ...aliases.map((a) => a.alias)].join(" ").toLowerCase() } },
      h("a", { href: `#/entities/${encodeURIComponent(entity.id)}` }, entity.name),
      h("span", { class: "muted" }, ` ${entity.type}`))));
  filter.addEventListener("input", () => {
    const needle = filter.value.toLowerCase();
    for (const li of list.children) li.hidden = needle && !li.dataset.names.includes(needle);
  });
  const page = h("div", {}, h("h1", {}, "Entities"),
    h("p", { class: "muted" }, `${found.length} entities in ${ctx.who}'s memories. Choose one to see its graph.`));
  const chosen = found.find(({ entity }) => entity.id === ctx.id);
  if (ctx.id && !chosen) page.append(h("div", { class: "error", role: "alert" }, `No entity ${ctx.id} here.`));
  if (chosen) {
    const { entity, aliases } = chosen;
    const near = await post("/v1/relations/query", { scope: scope(), entity_ids: [entity.id] });
    const neighbours = [...new Set(near.flatMap((e) => [e.source_entity_id, e.target_entity_id]))]
      .filter((id) => id !== entity.id).slice(0, MAX_NODES);
    const far = neighbours.length
      ? await post("/v1/relations/query", { scope: scope(), entity_ids: neighbours })
      : [];
    const edges = [...new Map([...near, ...far].map((e) => [e.id, e])).values()];
    page.replaceChildren(
      h("p", {}, h("a", { href: "#/entities" }, "← All entities")),
      h("h1", {}, entity.name, h("span", { class: "muted" }, ` · ${entity.type}`)),
      graph(entity, edges, names),
      h("div", { class: "grid2" },
        h("div", {}, h("h2", {}, `Aliases (${aliases.length})`), table([
          { title: "Alias", cell: (a) => a.alias },
          { title: "Source", cell: (a) => a.source },
          { title: "Confidence", num: true, cell: (a) => num(a.confidence) },
          { title: "Uses", num: true, cell: (a) => a.use_count },
          { title: "Whose", cell: (a) => a.user_id || "shared" },
        ], aliases)),
        h("div", {}, h("h2", {}, "About"), table([
          { title: "Field", cell: ([k]) => k }, { title: "Value", cell: ([, v]) => v },
        ], [["id", entity.id], ["user", entity.user_id || "shared"], ["external ref", entity.external_ref || "–"],
          ["created", entity.created_at], ...Object.entries(entity.properties).map(([k, v]) => [k, JSON.stringify(v)])]))),
      h("h2", {}, `Relations (${edges.length})`),
      table([
        { title: "From", cell: (e) => h("a", { href: `#/entities/${encodeURIComponent(e.source_entity_id)}` }, names.get(e.source_entity_id) || e.source_entity_id) },
        { title: "Relation", cell: (e) => e.relation },
        { title: "To", cell: (e) => h("a", { href: `#/entities/${encodeURIComponent(e.target_entity_id)}` }, names.get(e.target_entity_id) || e.target_entity_id) },
        { title: "Confidence", num: true, cell: (e) => num(e.confidence) },
        { title: "Stated by fact", cell: (e) => e.fact_id ? h("span", { class: "mono" }, e.fact_id) : "–" },
      ], edges, { empty: "No relation touches this entity." }),
      h("h2", {}, "Other entities"));
  }
  page.append(h("div", { class: "card" }, h("label", {}, "Filter", filter), list));
  return page;
}
