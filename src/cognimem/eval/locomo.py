"""LoCoMo evidence-recall harness (the protocol is in ``docs/benchmarks.md``).

LoCoMo (Maharana et al., ACL 2024; CC BY-NC 4.0) is ``data/locomo10.json`` of
https://github.com/snap-research/locomo: ten conversations. cognimem is tuned on the
first five, the *dev five* (``DEV_SAMPLES``); the other five check that gains carry over.

Each conversation is ingested as its own user scope, session by session, with the
speaker as the author, the session date as the event time and the ``dia_id`` as the
external id of every turn. For each question the top-k memories are read and the
covered turns are the union of their external ids.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cognimem.errors import InvalidInput
from cognimem.memory import Memory
from cognimem.models import Message
from cognimem.models.profiles import IngestProfile
from cognimem.services.reading import MAX_READ_TOKENS

CATEGORY_NAMES = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
KS = (5, 10, 20)
# the conversations cognimem is tuned on: the first five of locomo10.json
DEV_SAMPLES = ("conv-26", "conv-30", "conv-41", "conv-42", "conv-43")
_EVIDENCE = re.compile(r"D:?(\d+):0*(\d+)")
_SESSION_KEY = re.compile(r"^session_(\d+)$")


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    occurred_at: datetime


@dataclass(frozen=True)
class Question:
    text: str
    category: int
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    sessions: tuple[tuple[Turn, ...], ...]
    questions: tuple[Question, ...]

    @property
    def last_time(self) -> datetime:
        return max(t.occurred_at for s in self.sessions for t in s)


def parse_session_time(raw: str) -> datetime:
    """``"4:17 pm on 12 March, 2023"`` → an aware UTC datetime."""
    cleaned = re.sub(r"\s+", " ", raw.strip())
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%I:%M %p on %B %d, %Y"):
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise InvalidInput(f"unrecognised LoCoMo session date {raw!r}", field="session_date_time")


def parse_evidence(raw: Sequence[Any], known: set[str]) -> tuple[str, ...]:
    """Normalise evidence ids (``"D8:6; D9:17"``, ``"D:11:26"``, ``"D30:05"``); drop unknown."""
    out: dict[str, None] = {}
    for entry in raw:
        for part in re.split(r"[;,\s]+", str(entry)):
            match = _EVIDENCE.fullmatch(part.strip())
            if match:
                dia_id = f"D{int(match.group(1))}:{int(match.group(2))}"
                if dia_id in known:
                    out.setdefault(dia_id, None)
    return tuple(out)


def turn_text(turn: dict[str, Any]) -> str:
    text = str(turn.get("text", ""))
    caption = turn.get("blip_caption")
    return f"{text} [shares image: {caption}]" if caption else text


def load(path: Path) -> list[Conversation]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    conversations: list[Conversation] = []
    for sample in data:
        conv = sample["conversation"]
        numbers = sorted(int(m.group(1)) for k in conv if (m := _SESSION_KEY.match(k)))
        sessions: list[tuple[Turn, ...]] = []
        for n in numbers:
            start = parse_session_time(conv[f"session_{n}_date_time"])
            sessions.append(
                tuple(
                    # one second apart keeps the turns of a session in order
                    Turn(t["dia_id"], t["speaker"], turn_text(t), start + timedelta(seconds=i))
                    for i, t in enumerate(conv[f"session_{n}"])
                )
            )
        known = {t.dia_id for s in sessions for t in s}
        questions = []
        for qa in sample["qa"]:
            evidence = parse_evidence(qa.get("evidence", []), known)
            if evidence:
                questions.append(Question(str(qa["question"]), int(qa["category"]), evidence))
        conversations.append(Conversation(sample["sample_id"], tuple(sessions), tuple(questions)))
    return conversations


def dev_five(conversations: Sequence[Conversation]) -> list[Conversation]:
    """The dev five (``DEV_SAMPLES``) of a LoCoMo file; ``InvalidInput`` if it lacks any."""
    chosen = [c for c in conversations if c.sample_id in DEV_SAMPLES]
    missing = sorted(set(DEV_SAMPLES) - {c.sample_id for c in chosen})
    if missing:
        raise InvalidInput(
            f"the file lacks {', '.join(missing)} of the dev five ({', '.join(DEV_SAMPLES)}): "
            "use locomo10.json of https://github.com/snap-research/locomo",
            field="path",
        )
    return chosen


@dataclass
class Scores:
    """Sums over questions; ``row()`` gives the averages."""

    n: int = 0
    frac: dict[int, float] = field(default_factory=lambda: dict.fromkeys(KS, 0.0))
    all10: float = 0.0
    any10: float = 0.0
    mrr: float = 0.0
    tokens10: float = 0.0
    covered10: float = 0.0

    def add(self, evidence: set[str], ranked: list[tuple[set[str], int]]) -> None:
        self.n += 1
        for k in KS:
            covered = set().union(*(ids for ids, _ in ranked[:k]))
            self.frac[k] += len(evidence & covered) / len(evidence)
        top10 = set().union(*(ids for ids, _ in ranked[:10]))
        self.all10 += float(evidence <= top10)
        self.any10 += float(bool(evidence & top10))
        self.tokens10 += sum(tokens for _, tokens in ranked[:10])
        self.covered10 += len(top10)
        for rank, (ids, _) in enumerate(ranked, 1):
            if ids & evidence:
                self.mrr += 1.0 / rank
                break

    def merge(self, other: Scores) -> None:
        """Add ``other``'s sums to these (micro-averaging over conversations)."""
        self.n += other.n
        for k in KS:
            self.frac[k] += other.frac[k]
        self.all10 += other.all10
        self.any10 += other.any10
        self.mrr += other.mrr
        self.tokens10 += other.tokens10
        self.covered10 += other.covered10

    def row(self) -> dict[str, float]:
        n = max(self.n, 1)
        out = {f"frac@{k}": round(self.frac[k] / n, 4) for k in KS}
        out |= {
            "all@10": round(self.all10 / n, 4),
            "any@10": round(self.any10 / n, 4),
            "mrr": round(self.mrr / n, 4),
            "tokens@10": round(self.tokens10 / n, 1),
            "turns@10": round(self.covered10 / n, 2),
        }
        return out


@dataclass
class Report:
    preset: str
    overall: Scores = field(default_factory=Scores)
    by_category: dict[int, Scores] = field(default_factory=dict)
    # sample id → category → scores: any split of the conversations can be summed from it
    by_conversation: dict[str, dict[int, Scores]] = field(default_factory=dict)
    turns: int = 0
    ingest_seconds: float = 0.0
    query_seconds: float = 0.0
    consolidated: bool = False
    consolidate_seconds: float = 0.0
    # questions whose read came back degraded (a step timed out, a provider failed):
    # their rankings lack that step, so a score with any is not the preset's
    degraded_reads: int = 0

    def subset(self, samples: Sequence[str], category: int | None = None) -> Scores:
        """Scores summed over ``samples``: one category, or categories 1–4."""
        total = Scores()
        for sample in samples:
            for cat, scores in self.by_conversation.get(sample, {}).items():
                if (category is None and cat != 5) or cat == category:
                    total.merge(scores)
        return total

    def to_json(self) -> dict[str, Any]:
        overall = self.overall.row()
        return {
            "preset": self.preset,
            "overall": {
                k: overall[k] for k in ("frac@5", "frac@10", "frac@20", "all@10", "any@10", "mrr")
            },
            "by_category": {
                str(c): {"name": CATEGORY_NAMES[c], "questions": s.n, **s.row()}
                for c, s in sorted(self.by_category.items())
            },
            "questions": self.overall.n,
            "tokens_per_question": overall["tokens@10"],
            "turns_per_question": overall["turns@10"],
            "by_conversation": {
                sample: {
                    "overall": self.subset([sample]).row(),
                    **{str(c): s.row() for c, s in sorted(cats.items())},
                }
                for sample, cats in self.by_conversation.items()
            },
            "turns_ingested": self.turns,
            "ingest_seconds": round(self.ingest_seconds, 2),
            "query_seconds": round(self.query_seconds, 2),
            "consolidated": self.consolidated,
            "consolidate_seconds": round(self.consolidate_seconds, 2),
            "degraded_reads": self.degraded_reads,
        }


async def ingest(
    memory: Memory, conv: Conversation, *, profile: str | IngestProfile = "chat"
) -> int:
    """Write every turn, one ``write_batch`` per session (``profile``: a name or an
    ``IngestProfile``)."""
    count = 0
    for session in conv.sessions:
        messages = [
            Message(
                content=t.text,
                name=t.speaker,
                occurred_at=t.occurred_at,
                external_id=t.dia_id,
                idempotency_key=f"locomo:{conv.sample_id}:{t.dia_id}",
            )
            for t in session
            if t.text.strip()
        ]
        if messages:
            await memory.write_batch(messages, user_id=conv.sample_id, profile=profile)
            count += len(messages)
    return count


async def consolidate(memory: Memory, conversations: Sequence[Conversation]) -> float:
    """Consolidate every conversation's memory (one user each); the seconds it took."""
    import time

    start = time.perf_counter()
    for conv in conversations:
        await memory.consolidate(user_id=conv.sample_id)
    return time.perf_counter() - start


async def evaluate(
    memory: Memory,
    conversations: Sequence[Conversation],
    *,
    preset: str,
    on_turns: Callable[[int], None] = lambda n: None,
    on_question: Callable[[], None] = lambda: None,
    ingest_first: bool = True,
    consolidate_first: bool = False,
) -> Report:
    """Ingest (with ``ingest_first``), consolidate (with ``consolidate_first``: after
    ingesting, before asking), then ask every question and score the top-k items."""
    import time

    report = Report(preset=preset, consolidated=consolidate_first)
    if ingest_first:
        start = time.perf_counter()
        for conv in conversations:
            n = await ingest(memory, conv)
            report.turns += n
            on_turns(n)
        report.ingest_seconds = time.perf_counter() - start
    if consolidate_first:
        report.consolidate_seconds = await consolidate(memory, conversations)
    start = time.perf_counter()
    for conv in conversations:
        reference = conv.last_time + timedelta(days=1)
        for q in conv.questions:
            packet = await memory.read(
                q.text,
                user_id=conv.sample_id,
                limit=max(KS),
                max_tokens=MAX_READ_TOKENS,  # the ranking is measured, not the budget
                preset=preset,
                reference_time=reference,
            )
            ranked = [(set(i.external_ids), i.token_count) for i in packet.items]
            report.degraded_reads += bool(packet.degraded)
            evidence = set(q.evidence)
            if q.category != 5:
                report.overall.add(evidence, ranked)
            report.by_category.setdefault(q.category, Scores()).add(evidence, ranked)
            per_conv = report.by_conversation.setdefault(conv.sample_id, {})
            per_conv.setdefault(q.category, Scores()).add(evidence, ranked)
            on_question()
    report.query_seconds = time.perf_counter() - start
    return report


def render(report: Report) -> str:
    """A plain-text table: one row per category, then overall (categories 1–4)."""
    cols = ["frac@5", "frac@10", "frac@20", "all@10", "any@10", "mrr", "tokens@10", "turns@10"]
    header = f"{'category':<18}{'n':>5}  " + "".join(f"{c:>10}" for c in cols)
    lines = [f"LoCoMo evidence recall — preset {report.preset}", header, "-" * len(header)]
    for cat, scores in sorted(report.by_category.items()):
        row = scores.row()
        label = f"{cat} {CATEGORY_NAMES[cat]}" + (" *" if cat == 5 else "")
        lines.append(f"{label:<18}{scores.n:>5}  " + "".join(f"{row[c]:>10}" for c in cols))
    row = report.overall.row()
    lines.append("-" * len(header))
    lines.append(
        f"{'overall 1-4':<18}{report.overall.n:>5}  " + "".join(f"{row[c]:>10}" for c in cols)
    )
    lines.append("* category 5 (adversarial) is a diagnostic, not in the overall row")
    if report.degraded_reads:
        lines.append(
            f"! {report.degraded_reads} reads came back degraded (a step timed out or a"
            " provider failed): these scores are not the preset's"
        )
    return "\n".join(lines)
