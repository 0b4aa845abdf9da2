// Entities: pick one, see the graph of entities and relations around it (two hops),
// its aliases with their sources (each the chosen user's own can be removed, or split
// off into an entity of its own: undoing a wrong merge; a name given back merges a split
// back), and the edges as a table. An edit's outcome (the profiles it built again, and
// what did not run as configured) shows on the page it leads to (alias_outcome.js).

import { ApiError, post } from "../api.js";
import { h, num, svg, table } from "../dom.js";
import { levelScope, scope } from "../state.js";
import { remember, take } from "./alias_outcome.js";

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

// an edge label's box (11px text, app.css): its height and the width of one character,
// generous, so that labels set this far apart cannot overlap
const LABEL_HEIGHT = 16;
const LABEL_CHAR = 7;

function bends(edges, at) {
  // edge id -> how far (px, signed) its label sits off the straight line between its
  // nodes. Edges between the same two nodes, either way round, bend apart, each to its
  // own side, so that their labels' boxes are side by side: a one-line gap across an
  // edge that runs sideways, a label's width across one that runs up and down.
  const pairs = new Map();
  for (const e of edges) {
    const key = [e.source_entity_id, e.target_entity_id].sort().join("\u0000");
    pairs.set(key, [...(pairs.get(key) || []), e]);
  }
  const out = new Map();
  for (const [key, group] of pairs) {
    group.sort((a, b) => a.relation.localeCompare(b.relation) || a.id.localeCompare(b.id));
    const [[x1, y1], [x2, y2]] = key.split("\u0000").map((id) => at.get(id));
    const length = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [nx, ny] = [Math.abs(y1 - y2) / length, Math.abs(x2 - x1) / length];
    const width = Math.max(...group.map((e) => e.relation.length)) * LABEL_CHAR + 8;
    const step = Math.min(nx ? width / nx : width, ny ? LABEL_HEIGHT / ny : width);
    group.forEach((e, i) => out.set(e.id, (i - (group.length - 1) / 2) * step));
  }
  return out;
}

function edgeShape(e, at, offset) {
  // a quadratic curve whose middle point is ``offset`` px off the straight line, on the
  // side fixed by the pair (not by the edge's direction), with the label at that point
  const [a, b] = [e.source_entity_id, e.target_entity_id].sort();
  const [[ax, ay], [bx, by]] = [at.get(a), at.get(b)];
  const length = Math.hypot(bx - ax, by - ay) || 1;
  const [nx, ny] = [(ay - by) / length, (bx - ax) / length];
  const [x1, y1] = at.get(e.source_entity_id);
  const [x2, y2] = at.get(e.target_entity_id);
  const [mx, my] = [(x1 + x2) / 2 + nx * offset, (y1 + y2) / 2 + ny * offset];
  const [cx, cy] = [2 * mx - (x1 + x2) / 2, 2 * my - (y1 + y2) / 2];
  const round = (v) => Math.round(v * 10) / 10;
  return { d: `M ${round(x1)} ${round(y1)} Q ${round(cx)} ${round(cy)} ${round(x2)} ${round(y2)}`, label: [round(mx), round(my)] };
}

function graph(center, edges, names) {
  const at = layout(center.id, edges);
  const shown = edges.filter((e) => at.has(e.source_entity_id) && at.has(e.target_entity_id));
  const offsets = bends(shown, at);
  return svg("svg", { class: "graph", id: "graph", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "group",
    "aria-label": `Graph around ${center.name}` },
  shown.map((e) => {
    const { d, label: [x, y] } = edgeShape(e, at, offsets.get(e.id));
    const from = names.get(e.source_entity_id) || e.source_entity_id;
    const to = names.get(e.target_entity_id) || e.target_entity_id;
    return svg("g", { class: "edge" },
      svg("title", {}, `${from} ${e.relation} ${to} (${num(e.confidence)})`),
      svg("path", { d }),
      svg("text", { class: "edge", x, y: y + 4, "text-anchor": "middle" }, e.relation));
  }),
  [...at.entries()].map(([id, [x, y]]) => svg("a", {
    href: `#/entities/${encodeURIComponent(id)}`, class: id === center.id ? "center node" : "node",
    "aria-label": names.get(id) || id,
  },
  svg("circle", { cx: x, cy: y, r: id === center.id ? 16 : 11 }),
  svg("text", { x, y: y + (id === center.id ? 32 : 26), "text-anchor": "middle" }, names.get(id) || id))));
}

function undoButtons(ctx, entity, alias) {
  // only the rows the chosen scope's words use can be taken off (the API's rule); never
  // the entity's own name
  const s = scope();
  const own = (alias.user_id ?? null) === (s.user_id ?? null);
  if (!own || alias.alias === entity.name.toLowerCase()) return "–";
  const undo = async (split, button) => {
    button.disabled = true;
    try {
      const done = await post(`/v1/entities/${encodeURIComponent(entity.id)}/aliases/remove`,
        { alias: alias.alias, split, scope: s });
      await remember(done.split_into ? done.split_into.entity.id : entity.id, done);
      if (done.split_into) {
        ctx.go(`#/entities/${encodeURIComponent(done.split_into.entity.id)}`,
          `“${alias.alias}” split off ${entity.name} into ${done.split_into.entity.name}.`);
      } else {
        ctx.say(`“${alias.alias}” removed from ${entity.name}.`);
        await ctx.rerender();
      }
    } catch (exc) {
      button.replaceWith(ctx.failed(exc));
    }
  };
  const button = (label, split, title) => {
    const b = h("button", { type: "button", title, "aria-label": `${label} ${alias.alias}`,
      onclick: () => undo(split, b) }, label);
    return b;
  };
  return h("span", { class: "actions" },
    button("Remove", false, "Take this name off the entity"),
    " ",
    button("Split off", true, "Make this name an entity of its own"));
}

// what a refusal of a name means here, before the API's own words
const REFUSED = {
  403: "this key cannot edit this scope's names",
  404: "this entity is not in the chosen scope",
  409: "another entity has this name",
};

function addForm(ctx, entity) {
  // give a name to the entity as the user's word; a name split off it merges the
  // split-off entity back (its links and facts come back with it)
  const input = h("input", { type: "text", id: "alias-add-name", name: "alias", required: true,
    autocomplete: "off", "aria-describedby": "alias-add-help" });
  const button = h("button", { type: "submit" }, "Add name");
  const outcome = h("div", { id: "alias-add-result" });
  const form = h("form", {
    class: "inline",
    id: "alias-add",
    "aria-label": `Add a name to ${entity.name}`,
    onsubmit: async (event) => {
      event.preventDefault();
      button.disabled = true;
      try {
        const done = await post(`/v1/entities/${encodeURIComponent(entity.id)}/aliases/add`,
          { alias: input.value, scope: scope() });
        await remember(entity.id, done);
        const back = done.merged_from ? `; merged back ${done.merged_from.entity.name}` : "";
        ctx.say(done.added.length
          ? `“${done.added[0].alias}” added to ${entity.name}${back}.`
          : `${entity.name} already has “${input.value.trim()}”.`);
        await ctx.rerender();
      } catch (exc) {
        button.disabled = false;
        const why = exc instanceof ApiError && REFUSED[exc.status];
        outcome.replaceChildren(ctx.failed(why
          ? new ApiError(exc.status, exc.type, `${why} (${exc.message})`, exc.field) : exc));
        input.focus();
      }
    },
  },
  h("label", {}, "Add a name", input),
  button);
  return h("div", {}, form,
    h("p", { id: "alias-add-help", class: "muted" },
      "The user's word for this entity. A name split off it merges that entity back."),
    outcome);
}

export async function render(ctx) {
  const found = await post("/v1/entities/query", { scope: levelScope() });
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
    const near = await post("/v1/relations/query", { scope: levelScope(), entity_ids: [entity.id] });
    const neighbours = [...new Set(near.flatMap((e) => [e.source_entity_id, e.target_entity_id]))]
      .filter((id) => id !== entity.id).slice(0, MAX_NODES);
    const far = neighbours.length
      ? await post("/v1/relations/query", { scope: levelScope(), entity_ids: neighbours })
      : [];
    const edges = [...new Map([...near, ...far].map((e) => [e.id, e])).values()];
    page.replaceChildren(
      h("p", {}, h("a", { href: "#/entities" }, "← All entities")),
      h("h1", {}, entity.name, h("span", { class: "muted" }, ` · ${entity.type}`)),
      ...take(entity.id),
      graph(entity, edges, names),
      h("div", { class: "grid2" },
        h("div", {}, h("h2", {}, `Aliases (${aliases.length})`), table([
          { title: "Alias", cell: (a) => a.alias },
          { title: "Source", cell: (a) => a.source },
          { title: "Confidence", num: true, cell: (a) => num(a.confidence) },
          { title: "Uses", num: true, cell: (a) => a.use_count },
          { title: "Whose", cell: (a) => a.user_id || "shared" },
          { title: "Undo merge", cell: (a) => undoButtons(ctx, entity, a) },
        ], aliases), addForm(ctx, entity)),
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
