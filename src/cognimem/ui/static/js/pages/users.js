// Users and scopes of the tenant with what each holds, and the lifecycle jobs' last runs.

import { get, post } from "../api.js";
import { ago, badge, h, table, when } from "../dom.js";
import { choiceOf, choose, levelChoice, levelLabel, session } from "../state.js";

const live = (byStatus) => (byStatus?.active || 0) + (byStatus?.aging || 0);

function lastRuns(jobs) {
  // newest first from the API: the first job seen per (operation, user) is its last run
  const seen = new Map();
  for (const job of jobs) {
    const key = `${job.payload?.op}\u0000${job.payload?.namespace}\u0000${job.payload?.user_id}`;
    if (!seen.has(key)) seen.set(key, job);
  }
  return [...seen.values()];
}

function summary(result) {
  if (!result) return "–";
  return Object.entries(result).map(([k, v]) => `${k}: ${v}`).join(", ");
}

export async function render(ctx) {
  const [overview, jobs] = await Promise.all([
    post("/v1/users/query", { limit: 1000 }),
    get("/v1/jobs?kind=lifecycle&limit=1000"),
  ]);
  session.users = overview.users;
  session.levels = overview.levels || [];
  const pick = (user) => h("button", {
    type: "button",
    class: "secondary",
    "aria-label": `Show ${user.user_id}'s memories`,
    onclick: () => {
      choose(choiceOf(user.namespace, user.user_id));
      document.getElementById("user-select").value = choiceOf(user.namespace, user.user_id);
      location.hash = "#/memories";
    },
  }, "Open");
  const users = table([
    { title: "User", cell: (u) => h("b", {}, u.user_id) },
    { title: "Namespace", cell: (u) => u.namespace },
    { title: "Events", num: true, cell: (u) => u.stats.events },
    { title: "Memories", num: true, cell: (u) => u.stats.items?.active || 0 },
    { title: "Facts", num: true, cell: (u) => live(u.stats.facts) },
    { title: "Entities", num: true, cell: (u) => u.stats.entities },
    { title: "Open conflicts", num: true, cell: (u) => u.stats.open_conflicts },
    { title: "Last activity", cell: (u) => h("span", { title: when(u.last_event_at) }, ago(u.last_event_at)) },
    { title: "", cell: pick },
  ], overview.users, { empty: "No user has written anything to this tenant yet." });

  const open = (level) => h("button", {
    type: "button",
    class: "secondary",
    "aria-label": `Show ${levelLabel(level)}'s memory`,
    onclick: () => {
      choose(levelChoice(level));
      document.getElementById("user-select").value = levelChoice(level);
      location.hash = "#/memories";
    },
  }, "Open");
  const levels = table([
    { title: "Level", cell: (l) => h("b", {}, l.level === "agent" ? `agent ${l.agent_id}` : l.level) },
    { title: "Namespace", cell: (l) => (l.level === "organisation" ? "every namespace" : l.namespace) },
    { title: "Events", num: true, cell: (l) => l.events },
    { title: "Last activity", cell: (l) => h("span", { title: when(l.last_event_at) }, ago(l.last_event_at)) },
    { title: "", cell: open },
  ], session.levels, {
    empty: "Nothing written at a shared level yet (scope.level organisation or namespace, or an agent_id with no user).",
  });

  const runs = table([
    { title: "Operation", cell: (j) => h("b", {}, j.payload?.op || "?") },
    { title: "User", cell: (j) => j.payload?.user_id || "–" },
    { title: "State", cell: (j) => badge(j.state) },
    { title: "Trigger", cell: (j) => j.payload?.trigger || "–" },
    { title: "Last change", cell: (j) => h("span", { title: when(j.updated_at) }, ago(j.updated_at)) },
    { title: "Attempts", num: true, cell: (j) => j.attempts },
    { title: "Result", cell: (j) => summary(j.result) },
    { title: "Error", cell: (j) => j.error || "–" },
  ], lastRuns(jobs), {
    empty: "No lifecycle job has run yet (POST /v1/lifecycle/{op}, or `cognimem worker`'s scheduler).",
  });

  return h("div", {},
    h("h1", {}, `Users of tenant ${overview.tenant_id}`),
    h("p", { class: "muted" }, "Each user scope its raw events name, most recently active first. ",
      "Memories count active items; facts count live ones (active and aging)."),
    users,
    h("h2", {}, "Shared levels: the organisation's memory, each namespace's and each agent's"),
    h("p", { class: "muted" }, "Every user's read carries the organisation's memory and its namespace's, and an agent's in a read made with that agent."),
    h("div", { id: "levels" }, levels),
    h("h2", {}, "Lifecycle jobs: last run of each operation per user"),
    runs);
}
