"""The LoCoMo harness counts the reads that came back degraded: a score computed while
a step was missing is not the preset's, and the report says so rather than passing it
off as one (a busy machine timing out the cross-encoder did exactly that)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from cognimem import Memory
from cognimem.errors import ProviderUnavailable
from cognimem.eval import locomo
from cognimem.providers.embeddings import EmbedKind, FloatMatrix
from cognimem.providers.fakes import HashingEmbedder

FIXTURE = Path(__file__).parent.parent / "fixtures" / "mini_locomo.json"


class QueriesFail(HashingEmbedder):
    """Embeds what is written; fails every query embedding once ``down`` is set."""

    down = False

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        if self.down and kind == "query":
            raise ProviderUnavailable("down", provider="fake", model=self.model_id)
        return await super().embed(texts, kind)


async def test_a_degraded_read_is_counted_and_named(tmp_path: Path) -> None:
    conversations = locomo.load(FIXTURE)
    questions = sum(len(c.questions) for c in conversations)
    async with Memory.open(f"sqlite:///{tmp_path}/healthy.db", embedder=QueriesFail()) as mem:
        healthy = await locomo.evaluate(mem, conversations, preset="balanced")
    embedder = QueriesFail()
    async with Memory.open(f"sqlite:///{tmp_path}/failing.db", embedder=embedder) as mem:
        for conv in conversations:
            await locomo.ingest(mem, conv)
        embedder.down = True  # no question was embedded (or cached) before this
        failing = await locomo.evaluate(mem, conversations, preset="balanced", ingest_first=False)

    assert healthy.degraded_reads == 0
    assert "degraded" not in locomo.render(healthy)
    assert failing.degraded_reads == questions
    assert failing.to_json()["degraded_reads"] == questions
    assert f"{questions} reads came back degraded" in locomo.render(failing)
