// Who is signed in and whose memories the pages show: the tenant (from the key), the
// users of the tenant, and the chosen user scope (a user in a namespace, or every user).

const CHOICE = "cognimem.user";

export const session = {
  tenant: null,
  users: [],
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
}

export function choiceOf(namespace, userId) {
  return `${namespace}\u0000${userId ?? "*"}`;
}

// the request scope of the chosen user: {namespace, user_id} or {namespace, all_users}
export function scope() {
  const [namespace, user] = (choice() || choiceOf("default", null)).split("\u0000");
  return user === "*" ? { namespace, all_users: true } : { namespace, user_id: user };
}

export function scopeLabel() {
  const s = scope();
  const who = s.all_users ? "every user" : s.user_id;
  return s.namespace === "default" ? who : `${who} (namespace ${s.namespace})`;
}
