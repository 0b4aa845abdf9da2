// One memory: its text, provenance down to the raw events, its history of edits, and
// the actions a person takes on it: edit, change tier, forget (with a dry-run preview).

import { enums, get, post } from "../api.js";
import { badge, count, h, num, props, table, when } from "../dom.js";

// the read scope that reaches this item: its user, or every user of its namespace
function reach(item) {
  const { namespace, user_id: user } = item.scope;
  return user ? { namespace, user_id: user } : { namespace, all_users: true };
}

function change(entry) {
  const show = (value) => (value ? JSON.stringify(value) : "–");
  return h("span", { class: "mono" }, `${show(entry.before)} → ${show(entry.after)}`);
}

// what a forget takes with the memories: "2 facts, 1 graph edge, 0 summaries"
function withIt(result, last = ",") {
  const parts = [count(result.facts, "fact"), count(result.relations, "graph edge"),
    count(result.summaries, "summary", "summaries")];
  return `${parts.slice(0, -1).join(", ")}${last} ${parts.at(-1)}`;
}

function forgetPreview(ctx, item, mode, preview, facts) {
  const factText = new Map(facts.map((f) => [f.id, f.text]));
  const others = preview.item_ids.filter((id) => id !== item.id);
  const go = h("button", {
    type: "button",
    class: "danger",
    id: "forget-confirm",
    onclick: async () => {
      go.disabled = true;
      try {
        const done = await post("/v1/memory/forget", { scope: reach(item), ids: [item.id], mode });
        ctx.go("#/memories", `Forgot ${count(done.item_ids.length, "memory", "memories")} (${mode}), ${withIt(done)}.`);
      } catch (exc) {
        go.replaceWith(ctx.failed(exc));
      }
    },
  }, `Forget now (${mode})`);
  return h("div", { class: "warning", id: "forget-preview", role: "region", "aria-label": "What would be forgotten" },
    h("p", {}, h("b", {}, "Dry run: "), `${mode} would take ${count(preview.item_ids.length, "memory", "memories")}`,
      others.length ? ` (and ${others.join(", ")})` : "",
      `, ${withIt(preview, " and")} with it.`),
    preview.fact_ids.length
      ? h("ul", {}, preview.fact_ids.map((id) => h("li", {}, factText.get(id) || id, " ", h("span", { class: "mono muted" }, id))))
      : h("p", {}, "No fact depends on this memory alone."),
    preview.summary_ids.length ? h("p", {}, "Summaries: ", preview.summary_ids.join(", ")) : null,
    go);
}

// a form that updates the memory with `fields()` when submitted, says `done()` and renders
// the page again; a failure shows in the form
function updateForm(ctx, id, cls, fields, done, ...children) {
  const form = h("form", {
    class: cls,
    onsubmit: async (event) => {
      event.preventDefault();
      try {
        await post("/v1/memory/update", { id, ...fields() });
        ctx.say(done());
        await ctx.rerender();
      } catch (exc) {
        form.append(ctx.failed(exc));
      }
    },
  }, ...children);
  return form;
}

export async function render(ctx) {
  const id = ctx.id;
  const [item, history, { tiers }] = await Promise.all([
    get(`/v1/memory/get/${encodeURIComponent(id)}`),
    get(`/v1/memory/history/${encodeURIComponent(id)}`),
    enums(),
  ]);
  const events = item.source_event_ids.length
    ? await post("/v1/events/query", { ids: item.source_event_ids })
    : [];

  const text = h("textarea", { id: "edit-text", name: "text", "aria-label": "Text" }, item.text);
  const edit = updateForm(ctx, id, "card", () => ({ text: text.value }),
    () => "Saved: the memory is re-embedded and re-indexed.",
    h("h3", {}, "Edit text"), text, h("p", {}, h("button", { type: "submit" }, "Save text")));

  const tier = h("select", { id: "tier", name: "tier" }, tiers.map((t) => h("option", { value: t, selected: t === item.tier }, t)));
  const tierForm = updateForm(ctx, id, "inline", () => ({ tier: tier.value }),
    () => `Tier changed to ${tier.value}.`,
    h("label", {}, "Tier", tier), h("button", { type: "submit" }, "Change tier"));

  const mode = h("select", { id: "forget-mode", name: "mode" },
    ["archive", "silence", "delete"].map((m) => h("option", { value: m }, m)));
  const preview = h("div", {});
  const forgetForm = h("form", {
    class: "inline",
    onsubmit: async (event) => {
      event.preventDefault();
      try {
        const [dry, facts] = await Promise.all([
          post("/v1/memory/forget", { scope: reach(item), ids: [id], mode: mode.value, dry_run: true }),
          post("/v1/facts/query", { scope: reach(item), include_history: true, limit: 10000 }),
        ]);
        preview.replaceChildren(forgetPreview(ctx, item, mode.value, dry, facts));
        preview.querySelector("button")?.focus();
      } catch (exc) {
        preview.replaceChildren(ctx.failed(exc));
      }
    },
  }, h("label", {}, "Forget as", mode), h("button", { type: "submit", class: "secondary" }, "Preview forget"));

  return h("div", {},
    h("p", {}, h("a", { href: "#/memories" }, "← Memories")),
    h("h1", {}, "Memory ", h("span", { class: "mono muted" }, item.id)),
    h("blockquote", { id: "item-text" }, item.text),
    h("div", { class: "grid2" },
      h("div", { class: "card" }, props([
        ["Kind", item.kind], ["Tier", item.tier], ["Status", badge(item.status)],
        ["Importance", num(item.importance)], ["Confidence", num(item.confidence)],
        ["Occurred", when(item.occurred_at)], ["Recorded", when(item.recorded_at)],
        ["Tells of", item.event_start ? `${when(item.event_start)} – ${when(item.event_end)}` : "–"],
        ["Author", item.author || "–"], ["Key", item.key || "–"],
        ["Scope", Object.entries(item.scope).filter(([, v]) => v).map(([k, v]) => `${k}=${v}`).join(" ")],
      ])),
      h("div", { class: "card" }, props([
        ["Entities", item.entities.join(", ") || "–"],
        ["External ids", item.external_ids.join(", ") || "–"],
        ["Used", `${item.access_count} reads, ${item.loaded_count} loaded, ${item.cited_count} cited`],
        ["Outcomes", `${item.success_count} success, ${item.failure_count} failure`],
        ["Last read", when(item.last_accessed_at)],
        ["Consolidated", item.consolidated ? "yes" : "no"],
        ["Supersedes", item.supersedes ? h("a", { href: `#/memory/${item.supersedes}` }, item.supersedes) : "–"],
        ["Superseded by", item.superseded_by ? h("a", { href: `#/memory/${item.superseded_by}` }, item.superseded_by) : "–"],
      ]))),
    h("h2", {}, "Actions"),
    h("div", { class: "card" }, tierForm, h("hr"), forgetForm, preview),
    edit,
    h("h2", {}, `Provenance: ${events.length} raw event${events.length === 1 ? "" : "s"}`),
    h("div", { id: "provenance" }, events.length
      ? events.map((e) => h("div", { class: "card" },
        h("p", { class: "muted" }, `${e.role}${e.name ? ` (${e.name})` : ""} · ${when(e.occurred_at)} · `,
          h("span", { class: "mono" }, e.id), e.external_id ? ` · ${e.external_id}` : ""),
        h("blockquote", {}, e.content)))
      : h("p", { class: "muted" }, "No raw event (the event was erased, or this memory was derived).")),
    h("h2", {}, "History"),
    table([
      { title: "When", cell: (e) => when(e.at) },
      { title: "Action", cell: (e) => e.action },
      { title: "By", cell: (e) => e.actor },
      { title: "Change", cell: change },
    ], history, { empty: "Never changed since it was stored." }));
}
