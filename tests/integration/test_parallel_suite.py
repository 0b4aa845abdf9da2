"""`make test` runs the suite on pytest-xdist workers, and every worker gets servers,
ports and files of its own (CONTRIBUTING.md, "Run it, test it")."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import servers
from tests.conftest import child_env, require_postgres

ROOT = Path(__file__).resolve().parents[2]

# each worker of the inner run records what it was given
PROBE = """
import json
import os
from pathlib import Path


def test_record_what_this_worker_was_given(worker_id, postgres_dsn, redis_server, tmp_path):
    record = {
        "worker": worker_id,
        "pid": os.getpid(),
        "postgres_dsn": postgres_dsn,
        "redis_url": redis_server.url,
        "tmp_path": str(tmp_path),
    }
    out = Path(os.environ["PROBE_OUT"]) / f"{worker_id}.json"
    out.write_text(json.dumps(record), encoding="utf-8")
"""


def test_make_test_runs_pytest_on_workers_and_prints_the_slowest_ten() -> None:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    plan = subprocess.run(
        ["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.replace("\\\n", " ")
    pytest_line = next(line for line in plan.splitlines() if "/pytest " in line)
    workers = re.search(r" -n (\d+)\b", pytest_line)
    assert workers is not None, pytest_line
    assert int(workers.group(1)) >= 2
    assert "--durations=10" in pytest_line
    assert "--cov" in pytest_line


@pytest.mark.slow
def test_each_worker_has_its_own_postgres_redis_and_files(tmp_path: Path) -> None:
    require_postgres()
    servers.require("redis")
    probe_dir = tmp_path / "probe"
    probe_dir.mkdir()
    (probe_dir / "test_probe.py").write_text(PROBE, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    env = child_env(
        PROBE_OUT=str(out),
        # the inner run must not skip what this run requires
        COGNIMEM_REQUIRE_SERVICES="1",
        PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
    )
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "tests.conftest",
            "-n",
            "2",
            "--dist",
            "each",  # the probe runs on every worker
            f"--rootdir={ROOT}",
            "-c",
            str(ROOT / "pyproject.toml"),
            f"--basetemp={tmp_path / 'basetemp'}",
            str(probe_dir / "test_probe.py"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    records = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(out.glob("*.json"))]
    assert [r["worker"] for r in records] == ["gw0", "gw1"]
    for key in ("pid", "postgres_dsn", "redis_url"):
        assert records[0][key] != records[1][key], key
    first, second = (Path(r["tmp_path"]) for r in records)
    assert not first.is_relative_to(second.parent)
    assert not second.is_relative_to(first.parent)
