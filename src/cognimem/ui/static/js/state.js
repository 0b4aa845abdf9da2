// Who is signed in and whose memories the pages show: the tenant (from the key), the
// users of the tenant, and the chosen user scope (a user in a namespace, or every user),
// or a shared level (the organisation's memory, a namespace's, an agent's).

const CHOICE = "cognimem.user";

export const session = {
  tenant: null,
  users: [],
  levels: [],
};

// "ns\u0000user" for a user, "ns\u0000*" for every user of a namespace
export function choice() {
  return sessionStorage.getItem(CHOICE);
}

export function choose(value) {
  sessionStorage.setItem(CHOICE, value);
}

export function forget() {
  sessionStorage.removeItem(CHOICE);
  session.tenant = null;
  session.users = [];
  session.levels = [];
}

export function choiceOf(namespace, userId) {
  return `${namespace}\u0000${userId ?? "*"}`;
}

// "*\u0000@organisation", "ns\u0000@namespace" or "ns\u0000@agent:<id>" for a shared
// level (user ids never start with "@"; the organisation's namespace is "*")
export function levelChoice(level) {
  const which = level.level === "agent" ? `agent:${level.agent_id}` : level.level;
  return `${level.namespace}\u0000@${which}`;
}

// a shared level in words: "the organisation", "namespace <ns>" or "agent <id>" (with its
// namespace when it is not the default one)
export function levelLabel(level) {
  if (level.level === "organisation") return "the organisation";
  const label = level.level === "agent" ? `agent ${level.agent_id}` : `namespace ${level.namespace}`;
  return level.level === "agent" && level.namespace !== "default"
    ? `${label} (${level.namespace})` : label;
}

function chosen() {
  return (choice() || choiceOf("default", null)).split("\u0000");
}

// whether the choice is a shared level: its pages list that level's items
export function sharedLevel() {
  return chosen()[1].startsWith("@");
}

// the request scope of the choice: {namespace, user_id}, {namespace, all_users}, and for
// a shared level {namespace, all_users, agent_id?} (listed with "shared": true)
export function scope() {
  const [namespace, user] = chosen();
  if (user.startsWith("@agent:")) return { namespace, all_users: true, agent_id: user.slice(7) };
  // the organisation's rows are every namespace's: listed beside the default namespace's
  if (user === "@organisation") return { namespace: "default", all_users: true };
  if (user === "*" || user === "@namespace") return { namespace, all_users: true };
  return { namespace, user_id: user };
}

// the scope of one level alone, for the pages that read by level (facts, entities, recall):
// the organisation's {level}, a namespace's {namespace, level}, an agent's {namespace,
// agent_id} (no user: the agent's own memory, not its users'), else the user's (or every
// user's) scope
export function levelScope() {
  const [namespace, user] = chosen();
  if (user === "@organisation") return { level: "organisation" };
  if (user === "@namespace") return { namespace, level: "namespace" };
  if (user.startsWith("@agent:")) return { namespace, agent_id: user.slice(7) };
  return scope();
}

export function scopeLabel() {
  const [, user] = chosen();
  const s = scope();
  let who = s.all_users ? "every user" : s.user_id;
  if (user === "@organisation") return "the organisation";
  if (user === "@namespace") return `namespace ${s.namespace}`;
  if (user.startsWith("@agent:")) who = `agent ${s.agent_id}`;
  return s.namespace === "default" ? who : `${who} (namespace ${s.namespace})`;
}
