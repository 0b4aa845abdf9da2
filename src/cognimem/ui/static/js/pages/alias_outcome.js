// What an alias edit did besides its names, shown on the entity page it leads to: the
// consolidation profiles it built again (links to them) and, in a warning, what did not
// run as configured (the API's `degraded`: a profile the LLM failed to write, written
// extractively instead, or a rebuild that failed and is left to the next consolidation
// pass). Never silent: every entry of `degraded` is shown as the API says it.

import { get } from "../api.js";
import { h } from "../dom.js";

// the outcome waiting for its entity's page to be drawn: {entityId, node}
let pending = null;

// entity id -> name, of the entities the edit's answer carries
function namesOf(done) {
  const all = [done.entity, done.split_into, done.merged_from].filter(Boolean);
  return new Map(all.map(({ entity }) => [entity.id, entity.name]));
}

// "profile:<entity id>" read as "the profile of <name>" when the edit names the entity
function subject(key, names) {
  const id = key && key.startsWith("profile:") ? key.slice("profile:".length) : null;
  return id && names.has(id) ? `profile of ${names.get(id)}` : key;
}

async function profileLink(id, names) {
  const href = `#/memory/${encodeURIComponent(id)}`;
  try {
    const item = await get(`/v1/memory/get/${encodeURIComponent(id)}`);
    return h("a", { href, title: item.text }, subject(item.key, names) || id);
  } catch (exc) {
    return h("span", {}, h("a", { href, class: "mono" }, id), ` (not read: ${exc.message})`);
  }
}

function degradedNotice(entries, names) {
  const said = entries.map((entry) => {
    const [, key, why] = /^(profile:[^:\s]+): ([\s\S]*)$/.exec(entry) || [];
    // a profile named here is the LLM's gist that failed: the profile is written all
    // the same, extractively; any other entry says itself what was left undone
    return key ? `${subject(key, names)}: ${why} (written extractively instead)` : entry;
  });
  return h("div", { class: "warning", role: "alert", id: "alias-degraded" },
    h("strong", {}, "The profiles were not all rebuilt as configured:"),
    h("ul", {}, said.map((text) => h("li", {}, text))));
}

async function outcome(done) {
  const names = namesOf(done);
  const rebuilt = done.rebuilt_profiles || [];
  const degraded = done.degraded || [];
  if (!rebuilt.length && !degraded.length) return null;
  const links = await Promise.all(rebuilt.map((id) => profileLink(id, names)));
  return h("div", { id: "alias-outcome" },
    degraded.length ? degradedNotice(degraded, names) : null,
    links.length
      ? h("p", { id: "alias-rebuilt" }, "Profiles built again: ",
        links.flatMap((link, i) => (i ? [", ", link] : [link])), ".")
      : null);
}

// keep what ``done`` (an aliases/remove or aliases/add answer) did for ``entityId``'s page
export async function remember(entityId, done) {
  const node = await outcome(done);
  pending = node ? { entityId, node } : null;
}

// the outcome kept for ``entityId``'s page, as a list of nodes (none, or one), once:
// the next entity page drawn takes it, another entity's page drops it
export function take(entityId) {
  const kept = pending;
  pending = null;
  return kept && kept.entityId === entityId ? [kept.node] : [];
}
