"""``cognimem export`` and ``cognimem import``: JSON lines out of and into a database.

``import`` reads two formats, told apart line by line: the export records that
``export`` (and ``POST /v1/memory/export``) write, and conversation messages, one per
line. A file holds one or the other.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any

import typer

from cognimem.cli.common import (
    AllUsersOption,
    DbOption,
    NamespaceLevelOption,
    OrganisationOption,
    TenantOption,
    UserOption,
    checked,
    counted,
    err,
    failed,
    out,
    reach_scope,
    row_progress,
    with_memory,
)
from cognimem.errors import InvalidInput

if TYPE_CHECKING:
    from cognimem.memory import Memory
    from cognimem.models import Message


def export(
    out_path: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Write to this file (default: standard output)."),
    ] = None,
    user: UserOption = None,
    all_users: AllUsersOption = False,
    agent: Annotated[
        str | None, typer.Option("--agent", help="The agent's own level alone (no --user).")
    ] = None,
    organisation: OrganisationOption = False,
    namespace_level: NamespaceLevelOption = None,
    tenant: TenantOption = "default",
    db: DbOption = None,
) -> None:
    """Export a user's memories (or with --all-users every user's of the tenant; an
    agent's own level with --agent; a namespace's with --namespace-level NS; the
    organisation's with --organisation) as JSON
    lines (a header line first), as the HTTP API's export does; `cognimem import` takes
    them back."""

    whose = checked(
        lambda: reach_scope(user, all_users, agent, organisation, "export", namespace_level)
    )

    async def go(mem: Memory) -> int:
        with _output(out_path) as sink, row_progress("exporting") as advance:
            rows = 0
            async for record in mem.export(scope={"tenant_id": tenant, **whose}):
                sink.write(record.json_line())
                rows += 1
                advance(1)
        return rows

    rows = with_memory(db, go)
    where = "standard output" if out_path is None else str(out_path)
    err.print(f"exported {counted(rows, 'record')} to {where}", markup=False)


@contextlib.contextmanager
def _output(path: Path | None) -> Iterator[IO[str]]:
    """Standard output, or a file that appears whole: written beside it and renamed
    once the export has ended, so a failed export never leaves a cut-off file."""
    if path is None:
        yield sys.stdout
        sys.stdout.flush()
        return
    partial = path.with_name(path.name + ".partial")
    try:
        with partial.open("w", encoding="utf-8") as sink:
            yield sink
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def import_(
    path: Annotated[
        Path,
        typer.Argument(help="JSON lines: what `cognimem export` wrote, or messages.", exists=True),
    ],
    user: Annotated[
        str | None,
        typer.Option("--user", "-u", help="User of messages that name none (messages only)."),
    ] = None,
    batch: Annotated[int, typer.Option(help="Messages per write batch.")] = 200,
    tenant: TenantOption = "default",
    db: DbOption = None,
) -> None:
    """Import JSON lines into a tenant: an export (its users kept, its ids made the
    tenant's; rows already stored are skipped), or messages {"content", "role"?,
    "name"?, "occurred_at"?, "user_id"?, "agent_id"?, "session_id"?, "idempotency_key"?,
    ...}, one per line."""
    lines = _read_lines(path)
    exported = [_is_export_record(row) for _, row in lines]
    if any(exported) and not all(exported):
        number = lines[exported.index(not exported[0])][0]
        first = "an export record" if exported[0] else "a message"
        problem = (
            f"{path}:{number}: a file holds export records or messages, not both "
            f"(line {lines[0][0]} is {first})"
        )
        raise failed(InvalidInput(problem, field=f"line {number}"))
    if lines and exported[0]:
        if user is not None:
            problem = "--user applies to messages; an export keeps the users it holds"
            raise failed(InvalidInput(problem, field="user"))
        _import_export(lines, tenant, db)
    else:
        _import_messages(lines, user, batch, tenant, db)


def _read_lines(path: Path) -> list[tuple[int, Any]]:
    lines = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip():
            continue
        try:
            lines.append((number, json.loads(raw)))
        except json.JSONDecodeError as exc:
            problem = f"{path}:{number}: not JSON ({exc.msg})"
            raise failed(InvalidInput(problem, field=f"line {number}")) from exc
    return lines


def _is_export_record(row: Any) -> bool:
    """An export line is ``{"type", "data"}``; a message has ``content`` instead."""
    return isinstance(row, dict) and "type" in row and "data" in row and "content" not in row


def _import_export(lines: list[tuple[int, Any]], tenant: str, db: str | None) -> None:
    async def go(mem: Memory) -> dict[str, int]:
        with row_progress("importing", total=len(lines)) as advance:
            return await mem.import_records(_counted(lines, advance), tenant_id=tenant)

    counts = with_memory(db, go)
    new = ", ".join(f"{name} {n}" for name, n in counts.items() if n) or "nothing"
    out.print(
        f"imported {counted(len(lines), 'export record')} into tenant {tenant} (new: {new})",
        soft_wrap=True,
    )


async def _counted(
    lines: list[tuple[int, Any]], advance: Callable[[int], None]
) -> AsyncIterator[Any]:
    for _, row in lines:
        yield row
        advance(1)


def _import_messages(
    lines: list[tuple[int, Any]], user: str | None, batch: int, tenant: str, db: str | None
) -> None:
    async def go(mem: Memory) -> int:
        from cognimem.models.arguments import make_message
        from cognimem.text.validate import check_message

        stored = 0
        # every line is checked before the first write: a bad one refuses the whole
        # file, so an import never stops halfway with part of it stored
        groups: dict[tuple[str | None, ...], list[Message]] = {}
        for number, row in lines:
            if not isinstance(row, dict):
                raise InvalidInput(f"line {number}: expected an object", field=f"line {number}")
            key = tuple(row.pop(f, None) for f in ("user_id", "agent_id", "session_id"))
            message = make_message(row, f"line {number}")
            check_message(message, f"line {number}: ", mem.settings.ingest)
            groups.setdefault(key, []).append(message)
        with row_progress("importing", total=len(lines)) as advance:
            for (user_id, agent_id, session_id), rows in groups.items():
                for start in range(0, len(rows), batch):
                    part = rows[start : start + batch]
                    result = await mem.write_batch(
                        part,
                        scope={"tenant_id": tenant},
                        user_id=user_id or user,
                        agent_id=agent_id,
                        session_id=session_id,
                    )
                    stored += sum(1 for m in result.messages if m.outcome.value == "stored")
                    advance(len(part))
        return stored

    stored = with_memory(db, go)
    out.print(f"imported {counted(len(lines), 'message')} ({stored} new)")
