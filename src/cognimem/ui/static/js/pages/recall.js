// The recall playground: a query as an agent sends it, the packet as the agent gets it,
// and with explain each candidate's signals, the plan's steps and what was degraded.

import { enums, post } from "../api.js";
import { count, h, num, signals, table } from "../dom.js";
import { levelScope } from "../state.js";

const SECTIONS = [
  ["mandates", "Always"], ["must_follow", "Must follow"], ["consider", "Consider"],
  ["facts", "Known facts"], ["preferences", "Preferences"], ["procedures", "Procedures"],
  ["summaries", "Summaries"], ["conflicts", "Open conflicts"], ["needs_validation", "Unconfirmed"],
];

function section(name, title, entries) {
  return h("div", { class: "card" },
    h("h3", {}, `${title} (${entries.length})`),
    h("ul", {}, entries.map((e) => h("li", {},
      e.texts ? e.texts.join(" / ") : e.text,
      " ",
      h("span", { class: "muted" }, e.confidence !== undefined ? `confidence ${num(e.confidence)}` : ""),
      e.score !== undefined ? h("span", { class: "muted" }, ` · score ${num(e.score, 3)}`) : null))));
}

function packetView(packet, markdown) {
  const sections = SECTIONS.filter(([name]) => packet.sections[name]?.length)
    .map(([name, title]) => section(name, title, packet.sections[name]));
  const steps = packet.steps || [];
  const timedOut = steps.filter((s) => s.timed_out);
  const explain = packet.explain || [];
  const signalNames = [...new Set(explain.flatMap((e) => Object.keys(e.signals)))];
  return h("div", { id: "packet" },
    h("h2", {}, "Packet"),
    h("p", {},
      h("b", { id: "token-use" }, `${packet.token_count} of ${packet.max_tokens} tokens`),
      packet.truncated ? " · truncated to the budget" : "",
      ` · preset ${packet.preset} · ${count(packet.items.length, "memory", "memories")}`,
      packet.nothing_relevant ? " · nothing relevant" : ""),
    packet.degraded.length
      ? h("div", { class: "warning", role: "note" }, h("b", {}, "Degraded: "), packet.degraded.join("; "))
      : null,
    timedOut.length
      ? h("div", { class: "warning" }, h("b", {}, "Timed out: "), timedOut.map((s) => s.name).join(", "),
        " (ranked without them)")
      : null,
    h("div", { class: "grid2" },
      h("div", {}, h("h3", {}, "As the agent gets it"), h("pre", { id: "markdown" }, markdown)),
      h("div", {}, h("h3", {}, "Sections"), sections.length ? sections : h("p", { class: "muted" }, "No section."))),
    h("h3", {}, "Ranked memories"),
    table([
      { title: "#", num: true, cell: (_, i) => i + 1 },
      { title: "Memory", cell: (it) => h("a", { href: `#/memory/${encodeURIComponent(it.id)}` }, it.text) },
      { title: "Kind", cell: (it) => it.kind },
      { title: "Score", num: true, cell: (it) => num(it.score, 3) },
      { title: "Tokens", num: true, cell: (it) => it.token_count },
      { title: "Signals", cell: (it) => signals(it.signals) },
    ], packet.items, { empty: "No memory returned." }),
    h("h3", {}, "Plan steps"),
    table([
      { title: "Group", num: true, cell: (s) => s.group },
      { title: "Step", cell: (s) => s.name },
      { title: "Time (ms)", num: true, cell: (s) => num(s.latency_ms, 1) },
      { title: "Results", num: true, cell: (s) => s.results },
      { title: "Outcome", cell: (s) => s.timed_out ? "timed out" : s.error ? `error: ${s.error}` : s.skipped ? `skipped: ${s.skipped}` : "ran" },
    ], steps, { rowClass: (s) => (s.timed_out ? "timed-out" : s.skipped ? "skipped" : null) }),
    explain.length ? [
      h("h3", {}, "Explain: every candidate's signals"),
      h("div", { class: "scroll" }, table([
        { title: "Candidate", cell: (e) => e.type === "item"
          ? h("a", { href: `#/memory/${encodeURIComponent(e.id)}`, class: "mono" }, e.id)
          : h("span", { class: "mono" }, e.id) },
        { title: "Type", cell: (e) => e.type },
        { title: "Outcome", cell: (e) => e.outcome },
        { title: "Why", cell: (e) => e.reason || "" },
        { title: "Steps", cell: (e) => e.steps.join(", ") },
        { title: "Score", num: true, cell: (e) => num(e.score, 3) },
        ...signalNames.map((name) => ({ title: name, num: true, cell: (e) => num(e.signals[name], 3) })),
      ], explain)),
    ] : null,
    packet.recall_config
      ? h("details", {}, h("summary", {}, "Ranking config used"), h("pre", {}, JSON.stringify(packet.recall_config, null, 2)))
      : null,
    h("details", {}, h("summary", {}, "Meta"), h("pre", {}, JSON.stringify(packet.meta, null, 2))));
}

export async function render(ctx) {
  const { presets } = await enums();
  const query = h("input", { type: "search", id: "recall-query", name: "query", required: true,
    class: "wide", placeholder: "what should I cook tonight?", value: ctx.params.get("q") || "" });
  const preset = h("select", { name: "preset" }, h("option", { value: "" }, "server default"),
    presets.map((p) => h("option", { value: p }, p)));
  const limit = h("input", { type: "number", name: "limit", min: 1, max: 200, value: 10 });
  const maxTokens = h("input", { type: "number", name: "max_tokens", min: 1, max: 200000, placeholder: "default" });
  const explain = h("input", { type: "checkbox", name: "explain", checked: true });
  const out = h("div", {});
  const form = h("form", {
    class: "filters card",
    onsubmit: async (event) => {
      event.preventDefault();
      const body = { query: query.value, scope: levelScope(), limit: Number(limit.value) || 10 };
      if (preset.value) body.preset = preset.value;
      if (maxTokens.value) body.max_tokens = Number(maxTokens.value);
      out.replaceChildren(h("p", { class: "muted" }, "Reading…"));
      try {
        const [packet, markdown] = await Promise.all([
          post("/v1/memory/read", { ...body, explain: explain.checked }),
          post("/v1/memory/read", { ...body, format: "markdown" }, { text: true }),
        ]);
        out.replaceChildren(packetView(packet, markdown));
      } catch (exc) {
        out.replaceChildren(ctx.failed(exc));
      }
    },
  },
  h("label", {}, "Query", query), h("label", {}, "Preset", preset), h("label", {}, "Limit", limit),
  h("label", {}, "Max tokens", maxTokens), h("label", { class: "check" }, explain, "explain"),
  h("button", { type: "submit" }, "Recall"));
  return h("div", {},
    h("h1", {}, "Recall playground"),
    h("p", { class: "muted" }, `Reads ${ctx.who}'s memories as an agent would (POST /v1/memory/read).`),
    form, out);
}
