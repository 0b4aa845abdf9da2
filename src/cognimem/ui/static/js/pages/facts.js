// Facts by category, each key's timeline (supersession chain, validity, confidence and
// its age since last validated, reinforcements), and the conflicts queue with resolve
// buttons.

import { enums, get, post } from "../api.js";
import { ago, badge, bar, h, num, table, when } from "../dom.js";
import { levelScope } from "../state.js";

function byKey(facts) {
  const keys = new Map();
  for (const f of facts) {
    if (!keys.has(f.key)) keys.set(f.key, []);
    keys.get(f.key).push(f);
  }
  for (const versions of keys.values()) {
    versions.sort((a, b) => a.recorded_at.localeCompare(b.recorded_at) || a.id.localeCompare(b.id));
  }
  return [...keys.entries()].sort(([a], [b]) => a.localeCompare(b));
}

function version(fact, facts) {
  const next = fact.superseded_by ? facts.get(fact.superseded_by) : null;
  const history = h("div", {});
  const details = h("details", {
    ontoggle: async () => {
      if (!details.open || history.childElementCount) return;
      try {
        const entries = await get(`/v1/memory/history/${encodeURIComponent(fact.id)}`);
        history.replaceChildren(table([
          { title: "When", cell: (e) => when(e.at) },
          { title: "Action", cell: (e) => e.action },
          { title: "By", cell: (e) => e.actor },
        ], entries, { empty: "No change recorded." }));
      } catch (exc) {
        history.replaceChildren(h("p", { class: "error" }, exc.message));
      }
    },
  }, h("summary", {}, "History and evidence"), history,
  h("p", {}, "Evidence: ", fact.evidence_item_ids.length
    ? fact.evidence_item_ids.map((id) => [h("a", { href: `#/memory/${encodeURIComponent(id)}`, class: "mono" }, id), " "])
    : "–"));
  const factors = Object.entries(fact.confidence_factors || {}).map(([k, v]) => `${k} ${num(v)}`).join(", ");
  return h("li", { id: `fact-${fact.id}`, class: fact.status },
    h("div", {}, badge(fact.status), " ", h("b", {}, fact.polarity ? fact.value : `not ${fact.value}`),
      h("span", { class: "muted" }, ` — “${fact.text}”`)),
    h("div", { class: "muted" },
      `valid ${fact.valid_from ? when(fact.valid_from) : "since it was said"} → ${fact.valid_to ? when(fact.valid_to) : "now"}`,
      ` · recorded ${when(fact.recorded_at)}`),
    h("div", {}, "confidence ", bar(fact.confidence, `confidence ${num(fact.confidence)}`), ` ${num(fact.confidence)}`,
      factors ? h("span", { class: "muted" }, ` (${factors})`) : "",
      ` · last validated ${ago(fact.last_validated_at)}`,
      ` · reinforced ${fact.reinforcement_count}×`),
    next ? h("div", {}, "superseded by ", h("a", { href: `#fact-${next.id}` , onclick: (event) => {
      event.preventDefault();
      document.getElementById(`fact-${next.id}`)?.scrollIntoView();
    } }, next.value)) : null,
    details);
}

function conflictCard(ctx, conflict, facts) {
  const note = h("input", { type: "text", name: "note", placeholder: "why (optional)", "aria-label": "Note" });
  const resolve = async (winner, button) => {
    button.disabled = true;
    try {
      await post(`/v1/conflicts/${encodeURIComponent(conflict.id)}/resolve`,
        { winner_fact_id: winner, note: note.value });
      ctx.say(winner ? `Conflict on ${conflict.key} resolved: ${facts.get(winner)?.value} stands.` : `Conflict on ${conflict.key} resolved: both stay.`);
      await ctx.rerender();
    } catch (exc) {
      button.replaceWith(ctx.failed(exc));
    }
  };
  const button = (label, winner) => {
    const b = h("button", { type: "button", onclick: () => resolve(winner, b) }, label);
    return b;
  };
  return h("div", { class: "card conflict", dataset: { key: conflict.key } },
    h("h3", {}, conflict.key, " ", badge(conflict.status)),
    h("p", { class: "muted" }, `opened ${when(conflict.created_at)} · strategy ${conflict.strategy}`),
    h("ul", {}, conflict.fact_ids.map((id) => {
      const f = facts.get(id);
      return h("li", {}, f ? [h("b", {}, f.value), ` — “${f.text}” (confidence ${num(f.confidence)}, ${when(f.recorded_at)}) `]
        : h("span", { class: "mono" }, id), " ", button(`Keep ${f ? f.value : id}`, id));
    })),
    h("div", { class: "actions" }, note, button("Keep both", null)));
}

export async function render(ctx) {
  const { categories } = await enums();
  const chosen = ctx.params.get("category") || "";
  const [facts, conflicts] = await Promise.all([
    post("/v1/facts/query", { scope: levelScope(), include_history: true, limit: 10000 }),
    post("/v1/conflicts/query", { scope: levelScope(), open_only: true }),
  ]);
  const byId = new Map(facts.map((f) => [f.id, f]));
  const counts = new Map();
  for (const f of facts) counts.set(f.category, (counts.get(f.category) || 0) + 1);
  const shown = chosen ? facts.filter((f) => f.category === chosen) : facts;
  const tabs = h("nav", { class: "tabs", "aria-label": "Categories" },
    h("a", { href: "#/facts", "aria-current": chosen ? "false" : "true" }, `all (${facts.length})`),
    categories.filter((c) => counts.get(c)).map((c) => h("a", {
      href: `#/facts?category=${c}`, "aria-current": c === chosen ? "true" : "false",
    }, `${c} (${counts.get(c)})`)));
  return h("div", {},
    h("h1", {}, "Facts"),
    h("p", { class: "muted" }, `${ctx.who}'s facts, every version of each key, oldest first.`),
    h("h2", { id: "conflicts" }, `Conflicts to resolve (${conflicts.length})`),
    conflicts.length
      ? conflicts.map((c) => conflictCard(ctx, c, byId))
      : h("p", { class: "muted" }, "No open conflict."),
    h("h2", {}, "By key"),
    tabs,
    shown.length
      ? byKey(shown).map(([key, versions]) => h("section", { class: "fact-key" },
        h("h3", {}, key, h("span", { class: "muted" }, ` · ${versions[0].category} · ${versions.length} version${versions.length === 1 ? "" : "s"}`)),
        h("ol", { class: "timeline" }, versions.map((f) => version(f, byId)))))
      : h("p", { class: "muted" }, "No fact in this category."));
}
