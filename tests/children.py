"""A ``cognimem`` command run as a child process, its output in a log file: the
processes the integration tests start (``cognimem worker``, ``cognimem serve``) and
wait on, polling with a generous deadline (no timing asserts)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


class CognimemChild:
    """``python -m cognimem <command...>`` with ``env``, its output going to ``log``;
    every wait on it ends within ``deadline_s``."""

    def __init__(
        self, command: list[str], env: dict[str, str], log: Path, *, deadline_s: float
    ) -> None:
        self.log = log
        self.deadline_s = deadline_s
        self.name = command[0]
        with log.open("wb") as out:
            self.popen = subprocess.Popen(
                [sys.executable, "-m", "cognimem", *command],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def exited(self) -> str | None:
        """Its output once it has exited, else None."""
        return None if self.popen.poll() is None else self.output()

    def wait_for(self, what: str, found: Callable[[], T | None]) -> T:
        """Poll ``found`` until it gives a value; fail with the output if the process
        exits first (after one last look) or the deadline passes."""
        deadline = time.monotonic() + self.deadline_s
        while True:
            value = found()
            if value is not None:
                return value
            if self.popen.poll() is not None:  # one last look at what it printed
                value = found()
                assert value is not None, f"{self.name} exited before {what}:\n{self.output()}"
                return value
            assert time.monotonic() < deadline, f"no {what} in {self.deadline_s}s:\n{self.output()}"
            time.sleep(0.05)

    def stop(self) -> int:
        """SIGTERM, then its exit status (killed if it outlives the deadline)."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout=self.deadline_s)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=30)
        return self.popen.returncode
