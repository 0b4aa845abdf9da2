"""What machine a benchmark ran on: CPU, cores, RAM, Python and library versions, date.

Every result file embeds ``describe()`` so a number is never read without its machine.
"""

from __future__ import annotations

import os
import platform
import sqlite3
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any


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
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        # other work on the machine skews timings: record how busy it was
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
    }
    info["summary"] = (
        f"{info['cpu_model']}, {cores} cores, {info['ram_gib']} GiB RAM, "
        f"Python {info['python']}, onnxruntime {info['onnxruntime']}, "
        f"SQLite {info['sqlite']}, {info['date']}"
    )
    return info


__all__ = ["describe"]
