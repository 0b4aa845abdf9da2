"""The dashboard in a real headless browser (Debian Chromium through selenium) against
``cognimem serve`` on a SQLite file: sign in, search, open an item, edit it, forget with a
preview, resolve a conflict, open the graph, undo a name merge and see the profiles it
rebuilt (or why not, when the LLM fails), the recall playground, the keyboard, and a
wrong, expired or revoked key, which show a sign-in error, never a blank page.

Waits are for what the page shows (explicit waits with a generous limit), never sleeps.
Without a browser the tests skip with the reason (fail with COGNIMEM_REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.e2e.dashboard_world import (
    ADMIN_KEY,
    Server,
    api,
    browser,
    consolidated,
    require_browser,
    seed,
    serving,
)

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.remote.webelement import WebElement

pytestmark = pytest.mark.slow
WAIT_S = 60.0  # a busy 2-core machine is slow, not stuck
ADA = {"user_id": "ada"}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    require_browser()
    with serving(tmp_path_factory.mktemp("dashboard")) as server:
        key = server.key()
        seed(server.base, key)
        yield server, key


@pytest.fixture(scope="module")
def driver(world: tuple[Server, str]) -> Iterator[WebDriver]:
    with browser() as d:
        yield d


@pytest.fixture
def page(driver: WebDriver, world: tuple[Server, str]) -> Iterator[Page]:
    """A new tab (so nothing is signed in: the key lives in the tab's sessionStorage) on
    the dashboard, the tabs of earlier tests closed."""
    server, _ = world
    old = driver.window_handles
    driver.switch_to.new_window("tab")
    fresh = driver.current_window_handle
    for handle in old:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(fresh)
    driver.get(f"{server.base}/ui/")
    shown = Page(driver, server.base)
    yield shown
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    # a refused key answers 401, which the browser logs, as it logs each refusal a test
    # expects (``Page.refusals``); nothing else may fail
    assert [e for e in errors if not any(str(s) in e["message"] for s in shown.refusals)] == []


class Page:
    def __init__(self, driver: WebDriver, base: str) -> None:
        self.driver = driver
        self.base = base
        self.refusals = {401}  # the HTTP statuses the test expects the API to answer

    def wait(self, what: Callable[[WebDriver], Any], message: str) -> Any:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.support.ui import WebDriverWait

        # a page re-renders as its data arrives: an element seen a moment ago may be gone
        waiting = WebDriverWait(
            self.driver, WAIT_S, ignored_exceptions=(StaleElementReferenceException,)
        )
        return waiting.until(what, message)

    def css(self, selector: str) -> WebElement:
        from selenium.webdriver.common.by import By

        def found(d: WebDriver) -> WebElement | bool:
            shown = [e for e in d.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()]
            return shown[0] if shown else False

        element: WebElement = self.wait(found, f"nothing shown matches {selector!r}")
        return element

    def all(self, selector: str) -> list[WebElement]:
        from selenium.webdriver.common.by import By

        return list(self.driver.find_elements(By.CSS_SELECTOR, selector))

    def text_of(self, selector: str, contains: str) -> WebElement:
        """The first shown element matching ``selector`` whose text holds ``contains``."""
        from selenium.webdriver.common.by import By

        def found(d: WebDriver) -> WebElement | bool:
            for e in d.find_elements(By.CSS_SELECTOR, selector):
                if e.is_displayed() and contains in e.text:
                    return e
            return False

        element: WebElement = self.wait(found, f"no {selector!r} shows {contains!r}")
        return element

    def heading(self, text: str) -> None:
        self.text_of("main h1", text)

    def sign_in_as(self, key: str, user: str) -> None:
        """Sign in, then show ``user``'s memory: the dashboard opens on the most recently
        active user, which another test of the module may have changed by writing."""
        from selenium.webdriver.support.ui import Select

        self.sign_in(key)
        self.heading("Users of tenant acme")
        chooser = Select(self.css("#user-select"))
        chooser.select_by_visible_text(user)  # no change (and no event) when already shown
        assert chooser.first_selected_option.text == user

    def go(self, fragment: str) -> None:
        self.driver.get(f"{self.base}/ui/{fragment}")

    def sign_in(self, key: str) -> None:
        field = self.css("#api-key")
        field.clear()
        field.send_keys(key)
        self.css("form.signin button[type=submit]").click()

    def main_text(self) -> str:
        return str(self.css("main").text)


def refusal(server: Server, key: str) -> str:
    """What the API answers a call with ``key`` that it refuses (401)."""
    answer = httpx.post(
        f"{server.base}/v1/users/query",
        json={},
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )
    assert answer.status_code == 401, answer.text
    message: str = answer.json()["error"]["message"]
    return message


def test_sign_in_shows_the_tenants_users_with_their_counts(
    page: Page, world: tuple[Server, str]
) -> None:
    server, key = world
    page.sign_in(key)
    page.heading("Users of tenant acme")
    ada = page.text_of("main table tbody tr", "ada")
    stats = api(server.base, key, "POST", "/v1/stats", {"scope": ADA})
    cells = [c.text for c in ada.find_elements("css selector", "td")]
    assert cells[:7] == [
        "ada",
        "default",
        str(stats["events"]),
        str(stats["items"]["active"]),
        str(stats["facts"].get("active", 0) + stats["facts"].get("aging", 0)),
        str(stats["entities"]),
        str(stats["open_conflicts"]),
    ]
    assert page.text_of("main table tbody tr", "consolidate").text.split()[:3] == [
        "consolidate",
        "ada",
        "queued",
    ]
    assert page.css("#tenant").text == "acme"


@pytest.mark.parametrize("which", ["wrong", "expired"])
def test_a_wrong_or_expired_key_shows_a_sign_in_error(
    page: Page, world: tuple[Server, str], which: str
) -> None:
    server, _ = world
    key = "cm_not-a-key-of-anyone" if which == "wrong" else server.expired_key()
    page.sign_in(key)
    error = page.css("#sign-in-error .error")
    # the API's own reason, as a script with this key would get it
    assert error.text.startswith(f"Sign-in failed: {refusal(server, key)}."), error.text
    assert page.css("#api-key").is_displayed()
    assert not page.css("header").find_element("id", "nav").is_displayed()


def test_a_key_revoked_while_signed_in_returns_to_sign_in_with_the_reason(
    page: Page, world: tuple[Server, str]
) -> None:
    server, _ = world
    key = server.key()
    page.sign_in(key)
    page.heading("Users of tenant acme")
    admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
    listed = httpx.get(f"{server.base}/v1/admin/keys", headers=admin, timeout=30).json()
    [mine] = [k for k in listed if key.startswith(k["prefix"])]
    httpx.delete(f"{server.base}/v1/admin/keys/{mine['id']}", headers=admin, timeout=30)
    page.go("#/memories")
    error = page.css("#sign-in-error .error")
    assert error.text.startswith(f"Sign-in failed: {refusal(server, key)}."), error.text


def test_search_with_the_keyboard_then_open_an_item_down_to_its_raw_event(
    page: Page, world: tuple[Server, str]
) -> None:
    from selenium.webdriver.common.keys import Keys

    _, key = world
    page.sign_in_as(key, "ada")
    body = page.css("body")
    body.send_keys("3")  # the Memories page
    page.heading("Memories")
    body.send_keys("/")  # focus the search field
    active = page.driver.switch_to.active_element
    assert active.get_attribute("id") == "memory-search"
    active.send_keys("risotto", Keys.ENTER)
    page.text_of("#memory-count", "1 shown")
    link = page.text_of("main table tbody a", "risotto")
    link.send_keys(Keys.ENTER)
    page.heading("Memory")
    assert page.css("#item-text").text == "I love Italian food, especially risotto."
    event = page.text_of("#provenance .card", "risotto")
    assert "user (Ada)" in event.text
    assert page.text_of("main h2", "Provenance: 1 raw event")


def test_edit_the_text_and_change_the_tier(page: Page, world: tuple[Server, str]) -> None:
    server, key = world
    [item] = api(server.base, key, "POST", "/v1/memory/query", {"scope": ADA, "contains": "Globex"})
    page.sign_in(key)
    page.heading("Users")
    page.go(f"#/memory/{item['id']}")
    page.heading("Memory")
    from selenium.webdriver.support.ui import Select

    Select(page.css("#tier")).select_by_value("high")
    page.text_of("button", "Change tier").click()
    page.text_of("#status", "Tier changed to high")
    text = page.css("#edit-text")
    text.clear()
    text.send_keys("I work at Globex as a senior data engineer.")
    page.text_of("button", "Save text").click()
    page.text_of("#item-text", "senior data engineer")
    stored = api(server.base, key, "GET", f"/v1/memory/get/{item['id']}")
    assert (stored["tier"], stored["text"]) == (
        "high",
        "I work at Globex as a senior data engineer.",
    )
    assert page.all("main table tbody tr"), "the edits are in the history"


def test_forget_shows_a_dry_run_preview_then_forgets(page: Page, world: tuple[Server, str]) -> None:
    server, key = world
    [item] = api(
        server.base, key, "POST", "/v1/memory/query", {"scope": ADA, "contains": "peanuts"}
    )
    facts_before = api(server.base, key, "POST", "/v1/facts/query", {"scope": ADA})
    allergy = [f for f in facts_before if item["id"] in f["evidence_item_ids"]]
    assert allergy, "the allergy fact rests on this memory"
    page.sign_in(key)
    page.heading("Users")
    page.go(f"#/memory/{item['id']}")
    page.heading("Memory")
    from selenium.webdriver.support.ui import Select

    Select(page.css("#forget-mode")).select_by_value("delete")
    page.text_of("button", "Preview forget").click()
    preview = page.css("#forget-preview")
    assert "Dry run: delete would take 1 memory" in preview.text
    assert ("1 fact," if len(allergy) == 1 else f"{len(allergy)} facts,") in preview.text
    assert allergy[0]["text"] in preview.text
    # the preview changed nothing
    assert api(server.base, key, "GET", f"/v1/memory/get/{item['id']}")["status"] == "active"
    page.css("#forget-confirm").click()
    page.heading("Memories")
    page.text_of("#status", "Forgot 1 memory (delete)")
    gone = httpx.get(
        f"{server.base}/v1/memory/get/{item['id']}",
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )
    assert gone.status_code == 404
    facts_after = {
        f["id"] for f in api(server.base, key, "POST", "/v1/facts/query", {"scope": ADA})
    }
    assert not facts_after & {f["id"] for f in allergy}


def test_resolve_a_conflict_from_the_queue(page: Page, world: tuple[Server, str]) -> None:
    server, key = world
    [conflict] = api(server.base, key, "POST", "/v1/conflicts/query", {"scope": ADA})
    page.sign_in_as(key, "ada")
    page.go("#/facts")
    page.heading("Facts")
    card = page.text_of(".conflict", conflict["key"])
    buttons = {b.text for b in card.find_elements("css selector", "button")}
    assert buttons == {"Keep Ada", "Keep Adaline", "Keep both"}
    page.text_of(".conflict button", "Keep Adaline").click()
    page.text_of("#status", "Adaline stands")
    page.text_of("main p", "No open conflict.")
    assert api(server.base, key, "POST", "/v1/conflicts/query", {"scope": ADA}) == []
    names = api(
        server.base,
        key,
        "POST",
        "/v1/facts/query",
        {"scope": ADA, "key": conflict["key"], "include_history": True},
    )
    assert {f["value"]: f["status"] for f in names} == {"Adaline": "active", "Ada": "superseded"}
    # the key's timeline shows both versions, the superseded one pointing at the winner
    timeline = page.text_of("section.fact-key", conflict["key"])
    assert "superseded by Adaline" in timeline.text


def test_open_the_graph_around_an_entity_and_walk_it_with_the_keyboard(
    page: Page, world: tuple[Server, str]
) -> None:
    from selenium.webdriver.common.keys import Keys

    _, key = world
    page.sign_in_as(key, "ada")
    page.css("body").send_keys("5")
    page.heading("Entities")
    page.css("#entity-filter").send_keys("sarah")
    page.text_of("#entity-list a", "Sarah").click()
    page.heading("Sarah")
    graph = page.css("svg#graph")
    labels = {a.get_attribute("aria-label") for a in graph.find_elements("css selector", "a")}
    assert {"Sarah", "Boston"} <= labels, labels
    assert page.text_of("main table tbody tr", "sarah")  # the alias, with its source
    boston = next(
        a
        for a in graph.find_elements("css selector", "a")
        if a.get_attribute("aria-label") == "Boston"
    )
    boston.send_keys(Keys.ENTER)
    page.heading("Boston")


# where each edge of the graph is drawn: its ends, the middle of its line or curve, and
# its label's box (an SVG line and path both measure their length)
_EDGES_DRAWN = """
return [...document.querySelectorAll("#graph text.edge")].map((label) => {
  const shape = label.parentNode.querySelector("line, path");
  const middle = shape.getPointAtLength(shape.getTotalLength() / 2);
  const box = label.getBoundingClientRect();
  const ends = [shape.getPointAtLength(0), shape.getPointAtLength(shape.getTotalLength())];
  return {relation: label.textContent, middle: [middle.x, middle.y],
          box: [box.left, box.top, box.right, box.bottom], ends: ends.map((p) => [p.x, p.y])};
});
"""


def test_two_relations_between_one_pair_are_drawn_apart_with_readable_labels(
    page: Page, world: tuple[Server, str]
) -> None:
    _, key = world
    page.sign_in_as(key, "ben")
    page.go("#/entities")
    page.text_of("#entity-list a", "Porto").click()
    page.heading("Porto")
    page.css("svg#graph")
    page.text_of("main table tbody tr", "hometown")  # Ben lives in Porto and grew up there
    drawn = page.driver.execute_script(_EDGES_DRAWN)
    [city] = [e for e in drawn if e["relation"] == "city"]
    [hometown] = [e for e in drawn if e["relation"] == "hometown"]
    # the same two nodes at the ends of both ...
    assert sorted(map(tuple, city["ends"])) == sorted(map(tuple, hometown["ends"]))
    # ... but two edges apart, not one drawn over the other ...
    apart = math.dist(city["middle"], hometown["middle"])
    assert apart >= 10, (city, hometown)
    # ... and labels whose boxes do not overlap
    (l1, t1, r1, b1), (l2, t2, r2, b2) = city["box"], hometown["box"]
    assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, (city["box"], hometown["box"])


# holds the dashboard's next users/query answer until `window.releaseUsers()`; its body is
# read whole before the page gets it, and `window.usersAnswered` says when it was given
_HOLD_USERS = """
const real = window.fetch;
let release;
const held = new Promise((resolve) => { release = resolve; });
window.releaseUsers = () => release();
window.usersAnswered = false;
window.fetch = async (path, options) => {
  if (!String(path).includes("/v1/users/query")) return real(path, options);
  window.fetch = real;
  const answer = await real(path, options);
  await answer.clone().text();
  await held;
  window.usersAnswered = true;
  return answer;
};
"""

# after the held answer was given, many turns of the page's event loop: every step the
# page takes with an answer already read runs in them (no clock involved)
_SETTLE = """
const done = arguments[arguments.length - 1];
let turns = 0;
const turn = () => (window.usersAnswered && ++turns > 50 ? done(true) : setTimeout(turn, 0));
turn();
"""


def test_a_page_that_answers_late_never_draws_over_the_page_opened_after_it(
    page: Page, world: tuple[Server, str]
) -> None:
    from selenium.webdriver.support.ui import Select

    _, key = world
    page.sign_in(key)
    page.heading("Users")
    page.driver.execute_script(_HOLD_USERS)
    # choosing a user draws the Users page again, whose answer is held; the Entities page
    # is opened at once and drawn first
    Select(page.css("#user-select")).select_by_visible_text("ben")
    page.go("#/entities")
    page.text_of("#entity-list a", "Porto")
    page.driver.execute_script("window.releaseUsers()")
    assert page.driver.execute_async_script(_SETTLE) is True
    assert not page.css("main h1").text.startswith("Users of tenant"), page.main_text()
    assert page.text_of("#entity-list a", "Porto")


def test_the_recall_playground_shows_the_packet_steps_and_signals(
    page: Page, world: tuple[Server, str]
) -> None:
    server, key = world
    page.sign_in_as(key, "ada")
    page.go("#/recall")
    page.heading("Recall playground")
    page.css("#recall-query").send_keys("where does my sister live?")
    page.text_of("button", "Recall").click()
    markdown = page.css("#markdown")
    assert markdown.text.startswith("## Memory")
    assert "Boston" in markdown.text
    # the token use the agent would get for the same read
    packet = api(
        server.base,
        key,
        "POST",
        "/v1/memory/read",
        {"query": "where does my sister live?", "scope": ADA, "limit": 10},
    )
    assert page.css("#token-use").text == (
        f"{packet['token_count']} of {packet['max_tokens']} tokens"
    )
    page.text_of("main h3", "Plan steps")
    page.text_of("main h3", "Explain: every candidate's signals")
    assert page.text_of("main table tbody tr", "Boston")


def test_the_recall_playground_counts_one_memory_as_one_memory(
    page: Page, world: tuple[Server, str]
) -> None:
    server, key = world
    query = "where does my sister live?"
    body = {"query": query, "scope": ADA, "limit": 1}
    assert len(api(server.base, key, "POST", "/v1/memory/read", body)["items"]) == 1
    page.sign_in_as(key, "ada")
    page.go("#/recall")
    page.heading("Recall playground")
    page.css("#recall-query").send_keys(query)
    limit = page.css("input[name=limit]")
    limit.clear()
    limit.send_keys("1")
    page.text_of("button", "Recall").click()
    header = page.text_of("#packet p", "preset").text
    assert header.endswith(" · 1 memory"), header


def test_undo_a_wrong_name_merge_from_the_entity_page(
    page: Page, world: tuple[Server, str]
) -> None:
    server, key = world
    # last in this module: Cara becomes the most recently active user
    cara = {"user_id": "cara"}
    said = ["My sister Sarah Jones is a nurse.", "She goes by Sally.", "Sarah lives in Boston."]
    for text in said:
        body = {"scope": {**cara, "session_id": "c1"}, "content": text}
        api(server.base, key, "POST", "/v1/memory/write", body)
    page.sign_in_as(key, "cara")
    page.go("#/entities")
    page.text_of("#entity-list a", "Sarah Jones").click()
    page.heading("Sarah Jones")
    # the nickname: removed, and gone from the table
    page.css("button[aria-label='Remove sally']").click()
    page.text_of("#status", "removed from Sarah Jones")
    page.heading("Sarah Jones")
    page.css("button[aria-label='Split off sarah']")
    assert page.all("button[aria-label='Remove sally']") == []
    # the first name: split off into a person of its own, whose page opens
    page.css("button[aria-label='Split off sarah']").click()
    page.text_of("#status", "split off Sarah Jones into Sarah")
    page.heading("Sarah")
    page.text_of("main table tbody tr", "split_from")

    found = api(server.base, key, "POST", "/v1/entities/query", {"scope": cara})
    names = {e["entity"]["name"]: {a["alias"] for a in e["aliases"]} for e in found}
    assert names["Sarah Jones"] == {"sarah jones"}
    assert names["Sarah"] == {"sarah"}
    [jones] = [e["entity"]["id"] for e in found if e["entity"]["name"] == "Sarah Jones"]
    history = api(server.base, key, "GET", f"/v1/memory/history/{jones}")
    assert [h["action"] for h in history][-2:] == ["alias_removed", "alias_removed"]


def _facts_of(server: Server, key: str, scope: dict[str, str]) -> dict[str, tuple[str, str]]:
    """The scope's live facts: id -> (key, subject entity id)."""
    found = api(server.base, key, "POST", "/v1/facts/query", {"scope": scope, "limit": 1000})
    return {f["id"]: (f["key"], f["subject_entity_id"]) for f in found}


def test_give_a_split_off_name_back_from_the_entity_page(
    page: Page, world: tuple[Server, str]
) -> None:
    server, key = world
    dana = {"user_id": "dana"}
    written: dict[str, str] = {}
    for text in (
        "My colleague Elizabeth Smith is a lawyer.",
        "She goes by Lizzie.",
        "Lizzie works at Acme Corp.",
        "She lives in Boston.",
    ):
        body = {"scope": {**dana, "session_id": "d1"}, "content": text}
        [message] = api(server.base, key, "POST", "/v1/memory/write", body)["messages"]
        [written[text]] = message["item_ids"]
    merged = _facts_of(server, key, dana)
    boston = written["She lives in Boston."]
    linked = api(server.base, key, "GET", f"/v1/memory/get/{boston}")["entities"]
    page.sign_in_as(key, "dana")
    page.go("#/entities")
    page.text_of("#entity-list a", "Elizabeth Smith").click()
    page.heading("Elizabeth Smith")
    page.css("button[aria-label='Split off lizzie']").click()
    page.text_of("#status", "split off Elizabeth Smith into Lizzie")
    page.heading("Lizzie")
    [twin] = [
        e["entity"]
        for e in api(server.base, key, "POST", "/v1/entities/query", {"scope": dana})
        if e["entity"]["name"] == "Lizzie"
    ]
    moved = _facts_of(server, key, dana)
    assert twin["id"] in {subject for _, subject in moved.values()}  # the split moved facts
    assert moved != merged
    assert api(server.base, key, "GET", f"/v1/memory/get/{boston}")["entities"] != linked

    # the name given back through the form: Lizzie is merged back into Elizabeth Smith
    page.css("main a[href='#/entities']").click()
    page.text_of("#entity-list a", "Elizabeth Smith").click()
    page.heading("Elizabeth Smith")
    assert page.all("button[aria-label='Remove lizzie']") == []
    page.css("body").send_keys("/")  # the search field still, not the form above it
    assert page.driver.switch_to.active_element.get_attribute("id") == "entity-filter"
    page.css("#alias-add-name").send_keys("Lizzie")
    page.text_of("#alias-add button", "Add name").click()
    page.text_of("#status", "“lizzie” added to Elizabeth Smith; merged back Lizzie.")
    page.heading("Elizabeth Smith")
    row = page.text_of("main table tbody tr", "lizzie")
    assert "user_stated" in row.text
    page.css("button[aria-label='Remove lizzie']")  # the user's own name again

    # the API: the facts and the item's links came back, the history says so
    assert _facts_of(server, key, dana) == merged
    assert api(server.base, key, "GET", f"/v1/memory/get/{boston}")["entities"] == linked
    found = api(server.base, key, "POST", "/v1/entities/query", {"scope": dana})
    names = {e["entity"]["id"]: {a["alias"] for a in e["aliases"]} for e in found}
    [liz] = [e["entity"]["id"] for e in found if e["entity"]["name"] == "Elizabeth Smith"]
    assert "lizzie" in names[liz]
    assert not names.get(twin["id"])  # nothing of dana's resolves to the split-off one
    entry = api(server.base, key, "GET", f"/v1/memory/history/{liz}")[-1]
    assert (entry["action"], entry["after"]["merged_from"]) == ("alias_added", twin["id"])

    # a name another entity holds is refused, shown in the form; nothing changes
    page.refusals.add(409)
    page.css("#alias-add-name").send_keys("Acme Corp")
    page.text_of("#alias-add button", "Add name").click()
    error = page.text_of("#alias-add-result .error", "another entity has this name")
    assert error.get_attribute("role") == "alert"
    assert error.text.startswith("Conflict: ")
    assert page.css("#alias-add button").is_enabled()
    found = api(server.base, key, "POST", "/v1/entities/query", {"scope": dana})
    [aliases] = [e["aliases"] for e in found if e["entity"]["id"] == liz]
    assert "acme corp" not in {a["alias"] for a in aliases}


LIZZIE = (
    "My colleague Elizabeth Smith is a lawyer.",
    "She goes by Lizzie.",
    "Lizzie works at Acme Corp.",
    "Lizzie likes jazz.",
    "Elizabeth Smith likes tea.",
)


def _consolidated_lizzie(server: Server, key: str, scope: dict[str, str]) -> None:
    """Elizabeth Smith, called Lizzie, with her profile made by a consolidation pass."""
    for text in LIZZIE:
        body = {"scope": {**scope, "session_id": "p1"}, "content": text}
        api(server.base, key, "POST", "/v1/memory/write", body)
    consolidated(server, scope["user_id"])


def _live_profiles(base: str, key: str, scope: dict[str, str]) -> dict[str, str]:
    """The scope's live profiles: id -> key."""
    body = {"scope": scope, "kinds": ["summary"], "statuses": ["active"], "limit": 1000}
    found = api(base, key, "POST", "/v1/memory/query", body)
    profiles = [s for s in found if s["metadata"]["consolidation"]["group"] == "profile"]
    return {s["id"]: s["key"] for s in profiles}


def _split_lizzie(page: Page, key: str, user: str) -> None:
    page.sign_in_as(key, user)
    page.go("#/entities")
    page.text_of("#entity-list a", "Elizabeth Smith").click()
    page.heading("Elizabeth Smith")
    page.css("button[aria-label='Split off lizzie']").click()
    page.text_of("#status", "split off Elizabeth Smith into Lizzie")
    page.heading("Lizzie")


def test_a_split_and_its_merge_back_name_the_profiles_they_rebuilt(
    page: Page, world: tuple[Server, str]
) -> None:
    server, key = world
    ella = {"user_id": "ella"}
    _consolidated_lizzie(server, key, ella)
    _split_lizzie(page, key, "ella")
    rebuilt = page.css("#alias-rebuilt")
    links = {a.text: a.get_attribute("href") for a in rebuilt.find_elements("css selector", "a")}
    assert set(links) == {"profile of Elizabeth Smith", "profile of Lizzie"}, rebuilt.text
    assert page.all("#alias-degraded") == []  # no LLM: extractive is as configured
    live = _live_profiles(server.base, key, ella)
    assert {href.rsplit("/", 1)[1] for href in links.values()} == set(live)
    # the link opens the profile built for the split-off person
    page.text_of("#alias-rebuilt a", "profile of Lizzie").click()
    page.wait(
        lambda d: "Lizzie works at Acme Corp" in page.css("#edit-text").get_attribute("value"),
        "the profile of Lizzie does not state her job",
    )

    # the name given back: one profile is built again, Elizabeth Smith's
    page.go("#/entities")
    page.text_of("#entity-list a", "Elizabeth Smith").click()
    page.heading("Elizabeth Smith")
    assert page.all("#alias-outcome") == []  # an outcome is shown once, after its edit
    page.css("#alias-add-name").send_keys("Lizzie")
    page.text_of("#alias-add button", "Add name").click()
    page.text_of("#status", "merged back Lizzie")
    page.text_of("#alias-rebuilt", "profile of Elizabeth Smith")
    [back] = page.all("#alias-rebuilt a")
    assert back.text == "profile of Elizabeth Smith"
    [profile] = _live_profiles(server.base, key, ella)
    assert back.get_attribute("href").endswith(f"#/memory/{profile}")


def test_a_profile_the_llm_failed_to_rebuild_is_shown_as_degraded_with_why(
    page: Page, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from cognimem.providers.llm.fakes import FakeChatServer

    erin = {"user_id": "erin"}
    place = tmp_path_factory.mktemp("degraded")
    quiet = {"COGNIMEM_LIFECYCLE__SCHEDULE": "false"}
    # written and consolidated without an LLM (the rule-based extractor finds Lizzie) ...
    with serving(place, **quiet) as first:
        key = first.key()
        _consolidated_lizzie(first, key, erin)
    # ... then served on the same file with an LLM that answers every call 503
    with (
        FakeChatServer() as chat,
        serving(
            place,
            COGNIMEM_LLM__MODEL="fake-chat",
            COGNIMEM_LLM__BASE_URL=chat.base_url,
            COGNIMEM_LLM__MAX_RETRIES="0",
            **quiet,
        ) as server,
    ):
        chat.fail_next(503, body="overloaded", times=100)
        shown = Page(page.driver, server.base)
        shown.go("")
        _split_lizzie(shown, key, "erin")
        notice = shown.css("#alias-degraded")
        assert notice.get_attribute("role") == "alert"
        reasons = [li.text for li in notice.find_elements("css selector", "li")]
        assert sorted(r.split(":")[0] for r in reasons) == [
            "profile of Elizabeth Smith",
            "profile of Lizzie",
        ], reasons
        assert all("HTTP 503: 'overloaded'" in r for r in reasons), reasons
        assert all(r.endswith("(written extractively instead)") for r in reasons), reasons
        assert chat.request_count == 2  # one gist each, both failed
        # written extractively all the same, and linked
        links = shown.all("#alias-rebuilt a")
        assert sorted(a.text for a in links) == ["profile of Elizabeth Smith", "profile of Lizzie"]
        assert len(_live_profiles(server.base, key, erin)) == 2


def test_the_shared_levels_are_listed_and_an_agents_memory_shown_beside_a_users(
    page: Page, world: tuple[Server, str]
) -> None:
    server, key = world
    rule, sign_off = "Never share a customer's address.", "Sign off as the Helper bot."
    api(server.base, key, "POST", "/v1/memory/write",
        {"content": rule, "profile": "mandate", "scope": {"level": "organisation"}})  # fmt: skip
    api(server.base, key, "POST", "/v1/memory/write",
        {"content": sign_off, "profile": "mandate", "scope": {"agent_id": "helper"}})  # fmt: skip
    euros = "Quote prices in euros."
    api(server.base, key, "POST", "/v1/memory/write",
        {"content": euros, "profile": "mandate", "scope": {"level": "namespace"}})  # fmt: skip
    page.sign_in(key)
    page.heading("Users of tenant acme")
    levels = page.css("#levels")
    organisation = page.text_of("#levels tbody tr", "organisation")
    assert "every namespace" in organisation.text
    page.text_of("#levels tbody tr", "namespace")
    helper = page.text_of("#levels tbody tr", "agent helper")
    assert "organisation" in levels.text

    # ada's memories, with the shared levels her reads reach beside them
    page.go("#/users")
    page.text_of("main table tbody tr", "ada").find_element("css selector", "button").click()
    page.heading("Memories")
    page.text_of("#shared-memories tbody tr", rule)
    assert "namespace default" in page.text_of("#shared-memories tbody tr", euros).text
    assert sign_off not in page.css("#shared-memories").text  # a read with no agent
    page.text_of("#shared-memories a", "agent helper").click()
    page.text_of("#shared-memories h2", "with agent helper")
    row = page.text_of("#shared-memories tbody tr", sign_off)
    assert "agent helper" in row.text
    assert "risotto" in page.main_text()  # ada's own, beside them

    # the agent's level on its own page
    page.go("#/users")
    helper = page.text_of("#levels tbody tr", "agent helper")
    helper.find_element("css selector", "button").click()
    page.heading("Memories")
    page.text_of("main table tbody tr", sign_off)
    assert "risotto" not in page.main_text()  # no user's memory
    assert page.css("#user-select").get_attribute("value").endswith("@agent:helper")


def _open_level(page: Page, label: str) -> None:
    page.go("#/users")
    page.text_of("#levels tbody tr", label).find_element("css selector", "button").click()
    page.heading("Memories")


def test_the_facts_and_entities_pages_filter_by_level(
    page: Page, world: tuple[Server, str]
) -> None:
    server, key = world
    api(server.base, key, "POST", "/v1/memory/write",
        {"content": "My favorite color is teal. My sister Ana lives in Lyon.",
         "scope": {"agent_id": "desk"}})  # fmt: skip
    api(server.base, key, "POST", "/v1/memory/write",
        {"content": "My favorite color is amber.", "scope": {"level": "organisation"}})  # fmt: skip
    api(server.base, key, "POST", "/v1/memory/write",
        {"content": "The help desk opens at nine.", "scope": {"agent_id": "desk"}})  # fmt: skip
    api(server.base, key, "POST", "/v1/memory/write",
        {"content": "My help desk visit opens at noon.",
         "scope": {"user_id": "ada", "agent_id": "desk"}})  # fmt: skip
    page.sign_in(key)
    page.heading("Users of tenant acme")

    # the agent's own level: its facts and the entities of no user, no user's
    _open_level(page, "agent desk")
    # its recall reads the agent's memory alone, not its users' (ada's with the agent)
    page.go("#/recall")
    page.heading("Recall playground")
    page.css("#recall-query").send_keys("when does the help desk open?")
    page.text_of("button", "Recall").click()
    markdown = page.css("#markdown").text
    assert "The help desk opens at nine." in markdown
    assert "noon" not in markdown
    page.go("#/facts")
    page.text_of(".fact-key", "teal")
    facts = page.main_text()
    assert "amber" not in facts  # the organisation's level
    assert "Lisbon" not in facts  # ada's, though ada has turns with no agent
    page.go("#/entities")
    page.text_of("#entity-list li", "Ana")
    assert "Sarah" not in page.main_text()  # ada's sister: ada's entity

    # the organisation's level: its facts alone
    _open_level(page, "organisation")
    page.go("#/facts")
    page.text_of(".fact-key", "amber")
    facts = page.main_text()
    assert "teal" not in facts
    assert "Lisbon" not in facts
