"""The mem0 side of ``mem0_side_by_side.py``; runs inside mem0's own virtual environment.

mem0 OSS (``mem0ai``) with its local Qdrant in on-disk mode, ``infer=False`` (no LLM),
and cognimem's ``OnnxMiniLMEmbedder`` injected as its embedding model, so both systems
embed with the very same model code. Reads a JSON job (turns, queries, a work
directory) from the file named by ``argv[1]`` and prints one JSON object: the seconds
of each ``add`` and each ``search`` and how many memories were stored.

Nothing here reaches the network: mem0's telemetry is switched off by the caller's
environment, and the OpenAI embedder and LLM mem0 builds from its config are never
called (the embedder is replaced, ``infer=False`` never calls the LLM).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from mem0 import Memory  # type: ignore[import-not-found]

from cognimem.providers.onnx import OnnxMiniLMEmbedder


class InjectedMiniLM:
    """mem0's embedder interface (``embed(text, memory_action)``) over cognimem's model."""

    def __init__(self) -> None:
        self.model = OnnxMiniLMEmbedder()
        self.config = None

    def embed(self, text: Any, memory_action: str | None = None) -> list[float]:
        kind = "query" if memory_action == "search" else "document"
        row = self.model.embed_sync([str(text)], kind)[0]
        return [float(x) for x in row]

    def embed_batch(self, texts: list[str], memory_action: str = "add") -> list[list[float]]:
        kind = "query" if memory_action == "search" else "document"
        return [[float(x) for x in row] for row in self.model.embed_sync(list(texts), kind)]


def main() -> None:
    job = json.loads(Path(sys.argv[1]).read_text())
    work = Path(job["workdir"])
    config = {
        "vector_store": {
            "provider": "qdrant",
            "config": {
                "collection_name": "bench",
                "path": str(work / "qdrant"),
                "embedding_model_dims": 384,
                "on_disk": True,
            },
        },
        "embedder": {"provider": "openai", "config": {"api_key": "unused", "embedding_dims": 384}},
        "llm": {"provider": "openai", "config": {"api_key": "unused"}},
        "history_db_path": str(work / "history.db"),
    }
    mem = Memory.from_config(config)
    mem.embedding_model = InjectedMiniLM()
    mem.embedding_model.embed("warm up the model", "add")
    user = job["user"]
    add_s: list[float] = []
    for turn in job["turns"]:
        message = {"role": "user", "content": turn["text"], "name": turn["speaker"]}
        start = time.perf_counter()
        mem.add([message], user_id=user, infer=False)
        add_s.append(time.perf_counter() - start)
    search_s: list[float] = []
    hits: list[list[str]] = []
    for query in job["queries"]:
        start = time.perf_counter()
        found = mem.search(query, top_k=job["limit"], filters={"user_id": user})
        search_s.append(time.perf_counter() - start)
        hits.append([r["memory"] for r in found.get("results", [])])
    stored = len(mem.get_all(filters={"user_id": user}, top_k=100_000).get("results", []))
    print(json.dumps({"add_s": add_s, "search_s": search_s, "stored": stored, "hits": hits}))


if __name__ == "__main__":
    main()
