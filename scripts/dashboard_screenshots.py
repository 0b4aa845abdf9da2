"""Screenshots of every dashboard page, for docs/ui/*.png (linked from README.md and
docs/dashboard.md).

Runs ``cognimem serve`` on a throw-away SQLite file with the local embedding model,
writes the same conversations the browser tests use (tests/e2e/dashboard_world.py)
through the public API, signs in with a fresh key in headless Debian Chromium and saves
one 1366x900 screenshot per page. Needs the dev extra (selenium) and
``scripts/provision-browser.sh`` (chromium, chromium-driver).

    .venv/bin/python scripts/dashboard_screenshots.py [OUT_DIR]   # default: docs/ui
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402
from tests.e2e.dashboard_world import api, browser, seed, serving  # noqa: E402

WAIT_S = 60


def shown(driver: WebDriver, selector: str, text: str = "") -> None:
    def ready(d: WebDriver) -> bool:
        return any(
            e.is_displayed() and text in e.text for e in d.find_elements(By.CSS_SELECTOR, selector)
        )

    WebDriverWait(driver, WAIT_S).until(ready, f"{selector!r} never showed {text!r}")


def shot(driver: WebDriver, out: Path, name: str) -> None:
    # the whole page: as tall as its content, at the laptop width
    driver.execute_script("window.scrollTo(0, 0)")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1366, min(max(int(height) + 100, 900), 2400))
    driver.save_screenshot(str(out / f"{name}.png"))
    driver.set_window_size(1366, 900)
    print(f"wrote {out / name}.png")


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "ui"
    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as tmp,
        serving(Path(tmp), embedding="onnx:minilm") as server,
    ):
        key = server.key()
        seed(server.base, key)
        ada = {"user_id": "ada"}
        [risotto] = api(
            server.base, key, "POST", "/v1/memory/query", {"scope": ada, "contains": "risotto"}
        )
        with browser() as d:
            d.get(f"{server.base}/ui/")
            d.find_element(By.ID, "api-key").send_keys("cm_this-key-does-not-exist\n")
            shown(d, "#sign-in-error .error")
            shot(d, out, "sign-in-error")
            field = d.find_element(By.ID, "api-key")
            field.clear()
            field.send_keys(key + "\n")
            shown(d, "main h1", "Users of tenant")
            shot(d, out, "users")

            d.get(f"{server.base}/ui/#/recall")
            shown(d, "#recall-query")
            d.find_element(By.ID, "recall-query").send_keys("where does my sister live?\n")
            shown(d, "#markdown")
            shot(d, out, "recall")

            d.get(f"{server.base}/ui/#/memories?contains=lisbon")
            shown(d, "#memory-count")
            shot(d, out, "memories")

            d.get(f"{server.base}/ui/#/memory/{risotto['id']}")
            shown(d, "#provenance")
            Select(d.find_element(By.ID, "forget-mode")).select_by_value("delete")
            d.find_element(By.XPATH, "//button[text()='Preview forget']").click()
            shown(d, "#forget-preview")
            shot(d, out, "memory")

            d.get(f"{server.base}/ui/#/facts")
            shown(d, ".conflict")
            shot(d, out, "facts")

            d.get(f"{server.base}/ui/#/entities")
            shown(d, "#entity-list")
            [sarah] = [
                a for a in d.find_elements(By.CSS_SELECTOR, "#entity-list a") if a.text == "Sarah"
            ]
            sarah.click()
            shown(d, "svg#graph")
            shot(d, out, "entities")


if __name__ == "__main__":
    main()
