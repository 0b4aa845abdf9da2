// The dashboard's shell: sign-in, navigation, the user choice, keyboard shortcuts and
// the router that renders one page into <main>. Every page calls the public API.

import { ApiError, keepKey, post, storedKey } from "./api.js";
import { clear, errorBox, h, route } from "./dom.js";
import * as entities from "./pages/entities.js";
import * as facts from "./pages/facts.js";
import * as item from "./pages/item.js";
import * as memories from "./pages/memories.js";
import * as recall from "./pages/recall.js";
import * as users from "./pages/users.js";
import {
  choice, choiceOf, choose, forget, levelChoice, levelLabel, scopeLabel, session,
} from "./state.js";

const PAGES = { users, recall, memories, memory: item, facts, entities };
const SHORTCUTS = { 1: "users", 2: "recall", 3: "memories", 4: "facts", 5: "entities" };
const main = document.getElementById("main");
const statusLine = document.getElementById("status");

// what the status line says after the next change of page (see go)
let carried = "";

function say(text) {
  statusLine.textContent = text;
}

// go to another page and say something there (a page change clears the status line)
function go(hash, text) {
  carried = text;
  location.hash = hash;
}

async function signIn(key) {
  // any authenticated call proves the key; this one also names the tenant and its users
  const overview = await post("/v1/users/query", { limit: 1000 }, { key });
  keepKey(key);
  session.tenant = overview.tenant_id;
  session.users = overview.users;
  session.levels = overview.levels || [];
  const known = new Set([
    ...overview.users.map((u) => choiceOf(u.namespace, u.user_id)),
    ...session.levels.map(levelChoice),
  ]);
  if (!choice() || (!known.has(choice()) && !choice().endsWith("\u0000*"))) {
    const first = overview.users[0];
    choose(first ? choiceOf(first.namespace, first.user_id) : choiceOf("default", null));
  }
  showSession();
}

function showSession() {
  document.getElementById("tenant").textContent = session.tenant;
  const select = document.getElementById("user-select");
  const namespaces = [...new Set(["default", ...session.users.map((u) => u.namespace)])];
  const options = [
    ...session.users.map((u) => {
      const label = u.namespace === "default" ? u.user_id : `${u.user_id} (${u.namespace})`;
      return h("option", { value: choiceOf(u.namespace, u.user_id) }, label);
    }),
    ...namespaces.map((ns) => h("option", { value: choiceOf(ns, null) },
      ns === "default" ? "every user" : `every user (${ns})`)),
    ...session.levels.map((l) => h("option", { value: levelChoice(l) }, levelLabel(l))),
  ];
  select.replaceChildren(...options);
  select.value = choice();
  document.getElementById("nav").hidden = false;
  document.getElementById("session").hidden = false;
}

function signOut(message) {
  keepKey(null);
  forget();
  document.getElementById("nav").hidden = true;
  document.getElementById("session").hidden = true;
  say("");
  renderSignIn(message);
}

function renderSignIn(message) {
  const input = h("input", {
    id: "api-key", type: "password", name: "key", autocomplete: "off", required: true,
    placeholder: "cm_…", "aria-describedby": "key-help",
  });
  const failure = h("div", { id: "sign-in-error" });
  if (message) failure.replaceChildren(h("div", { class: "error", role: "alert" }, message));
  const button = h("button", { type: "submit" }, "Sign in");
  const form = h("form", {
    class: "card signin",
    onsubmit: async (event) => {
      event.preventDefault();
      button.disabled = true;
      failure.replaceChildren(h("p", { class: "muted" }, "Checking the key…"));
      try {
        await signIn(input.value.trim());
        if (!location.hash || location.hash === "#/" || location.hash === "#/sign-in") {
          location.hash = "#/users";
        } else {
          await render();
        }
      } catch (exc) {
        button.disabled = false;
        failure.replaceChildren(h("div", { class: "error", role: "alert" }, signInMessage(exc)));
        input.focus();
      }
    },
  },
  h("h1", {}, "Sign in"),
  h("label", {}, "API key", input),
  h("p", { id: "key-help", class: "muted" },
    "A key of your tenant (", h("code", {}, "cognimem keys create --tenant NAME"),
    "). It stays in this tab only and is sent to this server's API."),
  failure,
  button);
  clear(main).append(form);
  input.focus();
}

function signInMessage(exc) {
  if (exc instanceof ApiError && exc.status === 401) {
    return `Sign-in failed: ${exc.message}. Check the key, or ask for a new one if it expired or was revoked.`;
  }
  if (exc instanceof ApiError) return `Sign-in failed: ${exc.type}: ${exc.message}`;
  return `Sign-in failed: ${exc.message || exc}`;
}

// the number of the latest render: a page whose data arrives after a newer render began
// (a user chosen, then another page opened at once) is dropped, never drawn over it
let rendering = 0;

async function render() {
  const mine = ++rendering;
  const [path, params] = route();
  const [page = "users", ...rest] = path.split("/");
  const module = PAGES[page] || users;
  for (const link of document.querySelectorAll("#nav a")) {
    const current = link.dataset.page === page || (page === "memory" && link.dataset.page === "memories");
    if (current) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.title = `${page} · cognimem`;
  clear(main).append(h("p", { class: "muted" }, "Loading…"));
  const ctx = {
    params,
    id: rest.map(decodeURIComponent).join("/"),
    say,
    go,
    rerender: render,
    who: scopeLabel(),
    failed, // an error of an action on the page: a box to show (401 signs out)
  };
  try {
    const content = await module.render(ctx);
    if (mine !== rendering) return;
    clear(main).append(content);
  } catch (exc) {
    if (mine !== rendering) return;
    if (exc instanceof ApiError && exc.status === 401) {
      signOut(signInMessage(exc));
      return;
    }
    clear(main).append(h("h1", {}, "Something went wrong"), errorBox(exc));
  }
  const heading = main.querySelector("h1");
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
}

function failed(exc) {
  if (exc instanceof ApiError && exc.status === 401) signOut(signInMessage(exc));
  return errorBox(exc);
}

function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable ||
    ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target) || !storedKey()) return;
  if (SHORTCUTS[event.key]) {
    location.hash = `#/${SHORTCUTS[event.key]}`;
    event.preventDefault();
  } else if (event.key === "/") {
    // the page's search field first (an entity's page has a form above its filter)
    const search = main.querySelector("input[type=search]") || main.querySelector("input");
    if (search) {
      search.focus();
      event.preventDefault();
    }
  }
});

document.getElementById("user-select").addEventListener("change", (event) => {
  choose(event.target.value);
  say(`Showing ${scopeLabel()}.`);
  render();
});
document.getElementById("sign-out").addEventListener("click", () => signOut());
window.addEventListener("hashchange", () => {
  say(carried);
  carried = "";
  if (storedKey()) render();
});
// never a blank page: an error nobody caught is shown
window.addEventListener("unhandledrejection", (event) => {
  main.append(errorBox(event.reason || { message: "unknown error" }));
});

async function start() {
  const key = storedKey();
  if (!key) {
    renderSignIn();
    return;
  }
  try {
    await signIn(key);
  } catch (exc) {
    signOut(signInMessage(exc));
    return;
  }
  await render();
}

start();
