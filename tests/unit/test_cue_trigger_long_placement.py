"""Where benchmarks/cue_trigger_long.py puts a pair's cue and trigger: at the end of a
conversation, or mid-conversation (later sessions follow the cue, so it is not the
newest statement), the trigger read at the same time either way."""

from __future__ import annotations

import importlib.util
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType

import pytest

from cognimem.eval.locomo import Conversation, Turn

BENCHMARKS = Path(__file__).parent.parent.parent / "benchmarks"
START = datetime(2023, 1, 2, 10, 0, tzinfo=UTC)


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # its sibling imports (_machine, ...)
    spec = importlib.util.spec_from_file_location(
        "cue_trigger_long", BENCHMARKS / "cue_trigger_long.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "cue_trigger_long", module)
    spec.loader.exec_module(module)
    return module


def conversation(sample_id: str, sessions: int = 9, turns: int = 6) -> Conversation:
    return Conversation(
        sample_id,
        tuple(
            tuple(
                Turn(
                    f"D{s + 1}:{t + 1}",
                    ("Ann", "Bo")[t % 2],
                    f"turn {t} of session {s}",
                    START + timedelta(days=7 * s, seconds=t),
                )
                for t in range(turns)
            )
            for s in range(sessions)
        ),
        (),
    )


def test_a_mid_conversation_cue_sits_between_two_turns_of_a_middle_session(
    bench: ModuleType,
) -> None:
    pairs = [p for p in bench.load(bench.DATA)][:40]
    convs = [conversation("conv-a"), conversation("conv-b", sessions=12)]
    end = bench.place(pairs, convs)
    mid = bench.place(pairs, convs, "mid")
    by_id = {c.sample_id: c for c in convs}
    for e, m in zip(end, mid, strict=True):
        conv = by_id[m.conversation]
        turns = [t.occurred_at for s in conv.sessions for t in s]
        assert (e.pair, e.conversation, e.speaker, e.trigger_at) == (
            m.pair,
            m.conversation,
            m.speaker,
            m.trigger_at,
        )
        assert e.cue_at > conv.last_time  # the end setting: after the last session
        assert m.cue_at not in turns  # between two turns, not on one
        n = len(conv.sessions)
        session = next(
            i
            for i, s in enumerate(conv.sessions)
            if s[0].occurred_at <= m.cue_at <= s[-1].occurred_at + timedelta(seconds=1)
        )
        assert n // 3 <= session < (2 * n) // 3  # the middle third: later sessions follow
        assert sum(t > m.cue_at for t in turns) >= len(conv.sessions[-1])
