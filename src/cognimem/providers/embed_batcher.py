"""Concurrent reads' query embeddings in one embedder call.

:class:`QueryBatcher` wraps the embedder the read path uses. A query embedding that
arrives while none is in flight goes to the embedder at once, alone: a lone read waits
for nothing. Queries that arrive while one is in flight wait for it to finish and then
go together, in one call (one thread hop, and for a model that runs batches, one run
per length group: fewer, larger runs cost less CPU per query; MiniLM's float products
on two cores, about 2.3 ms a query in batches of eight against 3.8 ms alone). The
default model runs each text alone (its int8 activations are scaled per run), so there
the call saves the hops and the reads' competing calls, not model time.

Each caller gets exactly the rows of its own texts; a failed call fails every caller
it served, with the embedder's error. Documents are not batched here: a write embeds
its messages in one call already.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from cognimem.providers.embeddings import (
    Embedder,
    EmbedKind,
    FloatMatrix,
    WrappingEmbedder,
    check_texts,
)


@dataclass
class _Waiting:
    texts: list[str]
    rows: asyncio.Future[FloatMatrix] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class QueryBatcher(WrappingEmbedder):
    """An :class:`~cognimem.providers.embeddings.Embedder` that runs query embeddings
    arriving during another one's call together, in the next call to ``inner``, at
    most ``max_texts`` texts a call."""

    def __init__(self, inner: Embedder, *, max_texts: int = 64) -> None:
        super().__init__(inner)
        self.max_texts = max_texts
        self._waiting: list[_Waiting] = []
        self._loop: asyncio.AbstractEventLoop | None = None  # of the call in flight
        self._next: asyncio.Task[None] | None = None

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        check_texts(texts)
        loop = asyncio.get_running_loop()
        if self._loop is not None and self._loop.is_closed():
            self._loop, self._waiting = None, []  # the loop of the last call died with it
        if kind != "query" or not texts or (self._loop is not None and self._loop is not loop):
            # a call from another event loop cannot wait on this one's futures
            return await self.inner.embed(texts, kind)
        if self._loop is None:
            # nothing in flight: this call runs now, alone
            self._loop = loop
            try:
                return await self.inner.embed(list(texts), kind)
            finally:
                self._after_call()
        waiting = _Waiting(list(texts))
        self._waiting.append(waiting)
        return await waiting.rows

    def _after_call(self) -> None:
        """A call finished: the queries that waited for it go next, else none is in flight."""
        if self._waiting:
            self._next = asyncio.get_running_loop().create_task(self._run_waiting())
        else:
            self._loop = None

    async def _run_waiting(self) -> None:
        batch: list[_Waiting] = []
        count = 0
        while self._waiting and (
            not batch or count + len(self._waiting[0].texts) <= self.max_texts
        ):
            waiting = self._waiting.pop(0)
            if not waiting.rows.done():  # else its read gave up (a step timeout)
                batch.append(waiting)
                count += len(waiting.texts)
        texts = [t for waiting in batch for t in waiting.texts]
        try:
            rows = await self.inner.embed(texts, "query") if texts else None
        except asyncio.CancelledError:
            # the loop is shutting down: nobody is left to serve
            for waiting in [*batch, *self._waiting]:
                waiting.rows.cancel()
            self._loop, self._waiting = None, []
            raise
        except Exception as exc:
            for waiting in batch:
                if not waiting.rows.done():
                    waiting.rows.set_exception(exc)
        else:
            start = 0
            for waiting in batch:
                end = start + len(waiting.texts)
                if rows is not None and not waiting.rows.done():
                    waiting.rows.set_result(np.asarray(rows[start:end], dtype=np.float32))
                start = end
        self._after_call()


__all__ = ["QueryBatcher"]
