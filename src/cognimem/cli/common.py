"""What every command shares: the consoles, common options, error handling, progress."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cognimem.errors import CognimemError, InvalidInput

if TYPE_CHECKING:
    from pydantic import BaseModel

    from cognimem.memory import Memory
    from cognimem.store import Store

T = TypeVar("T")

# a line is never broken at the terminal's width: an id or a sentence cut in two is
# copied wrong (the terminal still shows it whole, wrapping as it must)
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

DbOption = Annotated[
    str | None,
    typer.Option("--db", help="Database URL (default: COGNIMEM_DATABASE_URL or the data dir)."),
]
UserOption = Annotated[str | None, typer.Option("--user", "-u", help="User id of the scope.")]
AgentOption = Annotated[
    str | None,
    typer.Option(
        "--agent",
        help="Agent id of the scope: a write is the agent's (every user of it reads its"
        " mandates), a read is made with that agent.",
    ),
]
AllUsersOption = Annotated[
    bool, typer.Option("--all-users", help="Every user of the tenant (not with --user).")
]
TenantOption = Annotated[
    str,
    typer.Option(
        "--tenant",
        "-t",
        help="Tenant of the scope (an API key made with `cognimem keys create --tenant` "
        "reads and writes its tenant's memories).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")]

# work of more rows than this shows a progress bar
PROGRESS_MIN_ROWS = 300


def checked(make: Callable[[], T]) -> T:
    """``make()``, with a cognimem error turned into its message and exit code 1 (a
    command's flags are checked so before anything opens)."""
    try:
        return make()
    except CognimemError as exc:
        raise failed(exc) from exc


def run(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine and turn cognimem errors into a message and exit code 1."""
    return checked(lambda: asyncio.run(make()))


def with_memory(db: str | None, use: Callable[[Memory], Awaitable[T]]) -> T:
    """Open the memory at ``db`` (the configured database when None), answer ``use``
    of it and close it; cognimem errors as :func:`run` turns them."""

    async def go() -> T:
        from cognimem.memory import Memory

        async with Memory.open(db) as mem:
            return await use(mem)

    return run(go)


def failed(exc: CognimemError) -> typer.Exit:
    """Print a cognimem error for the user; the exit (code 1) to raise."""
    # one line, unwrapped: users copy it and search for it
    err.print(f"[red]error[/red] ({exc.type}): {escape(exc.message)}")
    return typer.Exit(1)


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``1 memory``, ``2 memories``: a count with its noun in the right number."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def print_json(answer: BaseModel | Sequence[BaseModel]) -> None:
    """The answer on stdout as the HTTP API's JSON, indented."""
    from pydantic import BaseModel

    if isinstance(answer, BaseModel):
        text = answer.model_dump_json(indent=2)
    else:
        text = json.dumps([model.model_dump(mode="json") for model in answer], indent=2)
    sys.stdout.write(text + "\n")


def user_scope(user: str | None, all_users: bool, command: str) -> dict[str, object]:
    """The scope fields of a command that reads or removes memories: ``--user``, or
    ``--all-users`` to span every user of the tenant. Neither is refused: a missing user
    must not mean every user of the tenant."""
    if user is not None and all_users:
        raise InvalidInput(f"{command}: pass --user or --all-users, not both", field="user")
    if user is None and not all_users:
        raise InvalidInput(
            f"{command} needs --user USER, or --all-users to span every user of the tenant",
            field="user",
        )
    return {"all_users": True} if all_users else {"user_id": user}


OrganisationOption = Annotated[
    bool,
    typer.Option(
        "--organisation",
        help="The organisation's level alone, every namespace's (no --user, --agent or"
        " --all-users).",
    ),
]
NamespaceLevelOption = Annotated[
    str | None,
    typer.Option(
        "--namespace-level",
        metavar="NAMESPACE",
        help="That namespace's level alone (no --user, --agent, --all-users or --organisation).",
    ),
]


def level_flags(organisation: bool, namespace_level: str | None, command: str) -> dict[str, str]:
    """The scope fields of a shared level named by ``--organisation`` or
    ``--namespace-level NS`` (empty when neither is given; both is refused)."""
    if organisation and namespace_level is not None:
        raise InvalidInput(
            f"{command}: pass --organisation or --namespace-level, not both",
            field="namespace_level",
        )
    if organisation:
        return {"level": "organisation"}
    if namespace_level is not None:
        return {"level": "namespace", "namespace": namespace_level}
    return {}


def reach_scope(
    user: str | None,
    all_users: bool,
    agent: str | None,
    organisation: bool,
    command: str,
    namespace_level: str | None = None,
) -> dict[str, object]:
    """The scope fields of a command that removes or exports one level's memories: a
    user's (``--user``, with ``--agent`` their turns with it), every user's
    (``--all-users``), an agent's own (``--agent`` alone), or the organisation's or a
    namespace's — said with the ``--organisation`` or ``--namespace-level NS`` flag,
    never by leaving the others out."""
    level: dict[str, object] = dict(level_flags(organisation, namespace_level, command))
    if level:
        if user is not None or agent is not None or all_users:
            flag = "--organisation" if organisation else "--namespace-level"
            raise InvalidInput(
                f"{command}: {flag} is one shared level alone: leave out --user, --agent"
                " and --all-users",
                field="organisation" if organisation else "namespace_level",
            )
        return level
    if agent is not None and user is None and not all_users:
        return {"agent_id": agent}
    return {"agent_id": agent, **user_scope(user, all_users, command)}


def timestamp(value: str | None, option: str) -> datetime | None:
    """An ISO 8601 option value with its UTC offset (``2024-06-01T00:00:00+00:00``)."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError as exc:
        raise InvalidInput(f"--{option}: not an ISO 8601 time: {value!r}", field=option) from exc
    if parsed.tzinfo is None:
        raise InvalidInput(
            f"--{option}: {value!r} has no UTC offset (e.g. {value}+00:00)", field=option
        )
    return parsed


@contextmanager
def row_progress(description: str, total: int | None = None) -> Iterator[Callable[[int], None]]:
    """A function that counts rows done; a progress bar shows them once the work is
    (or grows) past ``PROGRESS_MIN_ROWS`` rows."""
    bar = progress_bar(disable=total is None or total <= PROGRESS_MIN_ROWS)
    task = bar.add_task(description, total=total)
    bar.start()  # a disabled bar does not draw
    done = 0

    def advance(rows: int) -> None:
        nonlocal done
        done += rows
        bar.advance(task, rows)
        if bar.disable and done > PROGRESS_MIN_ROWS:
            bar.disable = False
            bar.start()

    try:
        yield advance
    finally:
        bar.stop()


def progress_bar(*, disable: bool = False) -> Progress:
    """A progress bar on stderr (stdout may carry data); left on screen only on a terminal."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=not err.is_terminal,
        disable=disable,
    )


@asynccontextmanager
async def opened_store(db: str | None) -> AsyncIterator[Store]:
    """The configured store alone (no embedder, no queue): key management and
    migrations need no more."""
    from cognimem.config import Settings
    from cognimem.store import open_store

    store = open_store(db or Settings().database_url)
    await store.open()
    try:
        yield store
    finally:
        await store.close()
