"""``cognimem reembed --model SPEC``: move a database to another embedding model, with
a progress bar on stderr and the outcome as JSON on stdout."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from cognimem.cli.common import DbOption, progress_bar, run

if TYPE_CHECKING:
    from cognimem.models.admin import ReembedResult


def reembed(
    model: Annotated[
        str | None,
        typer.Option(
            help="The new model, as COGNIMEM_EMBEDDING__MODEL takes it "
            "(default: COGNIMEM_EMBEDDING__MODEL)."
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Re-embed every memory with another embedding model, then switch the database to
    it at once. Until the switch, everything else keeps reading and writing with the old
    model; stopped midway, nothing changed, and running it again embeds only what is
    left. Afterwards start every process with the new model."""

    async def go() -> ReembedResult:
        from cognimem.memory import Memory

        bar = progress_bar()
        task = bar.add_task(f"reembed {model or 'with the configured model'}", total=None)
        bar.start()

        def show(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            return await Memory.reembed(db, model=model, progress=show)
        finally:
            bar.stop()

    outcome = run(go)
    typer.echo(json.dumps(outcome.model_dump(mode="json"), indent=2))
