"""``cognimem eval``: benchmark harnesses."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from cognimem.cli.common import failed, out, progress_bar, run
from cognimem.errors import CognimemError


def eval_locomo(
    path: Annotated[Path, typer.Argument(help="LoCoMo JSON file (official format).", exists=True)],
    json_out: Annotated[Path | None, typer.Option("--json", help="Write results as JSON.")] = None,
    preset: Annotated[str, typer.Option(help="Recall preset to evaluate.")] = "balanced",
    dev: Annotated[
        bool,
        typer.Option(
            "--dev", help="Only the dev five: conv-26, conv-30, conv-41, conv-42, conv-43."
        ),
    ] = False,
    db: Annotated[
        str | None, typer.Option("--db", help="Database URL (default: a temporary file).")
    ] = None,
    consolidate: Annotated[
        bool,
        typer.Option(
            "--consolidate", help="Consolidate each conversation after ingesting, then ask."
        ),
    ] = False,
) -> None:
    """Evidence recall on LoCoMo, categories 1–4 (protocol: docs/benchmarks.md). PATH is
    locomo10.json from https://github.com/snap-research/locomo (CC BY-NC 4.0)."""
    from cognimem.eval import locomo
    from cognimem.memory import Memory

    conversations = locomo.load(path)
    if dev:
        try:
            conversations = locomo.dev_five(conversations)
        except CognimemError as exc:
            raise failed(exc) from exc
    total_turns = sum(len(s) for c in conversations for s in c.sessions)
    total_questions = sum(len(c.questions) for c in conversations)

    async def go() -> locomo.Report:
        with tempfile.TemporaryDirectory() as tmp:
            async with Memory.open(db or f"sqlite:///{tmp}/locomo.db") as mem:
                with progress_bar() as progress:
                    ingest = progress.add_task("ingesting turns", total=total_turns)
                    ask = progress.add_task("asking questions", total=total_questions)
                    return await locomo.evaluate(
                        mem,
                        conversations,
                        preset=preset,
                        on_turns=lambda n: progress.advance(ingest, n),
                        on_question=lambda: progress.advance(ask),
                        consolidate_first=consolidate,
                    )

    report = run(go)
    sys.stdout.write(locomo.render(report) + "\n")
    if json_out is not None:
        json_out.write_text(json.dumps(report.to_json(), indent=2) + "\n", encoding="utf-8")
        out.print(f"wrote {json_out}")
