"""What machine a benchmark ran on: CPU, cores, RAM, Python and library versions, date.

Every result file embeds ``describe()`` so a number is never read without its machine.
"""

from __future__ import annotations

import os
import platform
import sqlite3
import subprocess
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from cognimem.providers.onnx_int8 import u8s8_exact


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _ram_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024**2, 1)
    except OSError:
        pass
    return None


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _source() -> dict[str, Any]:
    """The commit the code ran from, and how many files under ``src/`` differ from it."""
    root = Path(__file__).resolve().parent.parent

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    changed = git("status", "--porcelain", "--", "src")
    return {
        "commit": git("rev-parse", "HEAD") or None,
        "uncommitted_files_under_src": len(changed.splitlines()),
    }


def describe() -> dict[str, Any]:
    """The machine and software a benchmark ran on, with a one-line ``summary``."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    info: dict[str, Any] = {
        "cpu_model": _cpu_model(),
        "cores": cores,
        "ram_gib": _ram_gib(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "onnxruntime": _version("onnxruntime"),
        "numpy": _version("numpy"),
        "tokenizers": _version("tokenizers"),
        "sqlite": sqlite3.sqlite_version,
        # MiniLM's int8 products run on signed weights only with VNNI (providers/onnx_int8)
        "vnni": u8s8_exact(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        # other work on the machine skews timings: record how busy it was
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
        "source": _source(),
    }
    info["summary"] = (
        f"{info['cpu_model']}, {cores} cores, {info['ram_gib']} GiB RAM, "
        f"Python {info['python']}, onnxruntime {info['onnxruntime']}, "
        f"SQLite {info['sqlite']}, {'' if info['vnni'] else 'no '}VNNI, {info['date']}, "
        f"commit {(info['source']['commit'] or '?')[:7]}"
    )
    return info


__all__ = ["describe"]


def provenance(command: str, machine: dict[str, Any]) -> list[str]:
    """A report's first lines after its title: the command, the machine (``describe``)
    and how many files under ``src/`` differed from the commit it ran on."""
    return [
        f"Command: `{command}`  ",
        f"Machine: {machine['summary']}  ",
        f"Source: {machine['source']['uncommitted_files_under_src']} files under `src/` "
        "differ from the commit",
    ]
