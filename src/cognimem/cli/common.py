"""What every command shares: the consoles, common options, error handling, progress."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cognimem.errors import CognimemError

T = TypeVar("T")

out = Console()
err = Console(stderr=True)

DbOption = Annotated[
    str | None,
    typer.Option("--db", help="Database URL (default: COGNIMEM_DATABASE_URL or the data dir)."),
]
UserOption = Annotated[str | None, typer.Option("--user", "-u", help="User id of the scope.")]


def run(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine and turn cognimem errors into a message and exit code 1."""
    try:
        return asyncio.run(make())
    except CognimemError as exc:
        err.print(f"[red]error[/red] ({exc.type}): {exc.message}")
        raise typer.Exit(1) from exc


def progress_bar() -> Progress:
    """A progress bar on stderr (stdout may carry data); left on screen only on a terminal."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=not err.is_terminal,
    )
