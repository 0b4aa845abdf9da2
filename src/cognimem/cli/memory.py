"""Memory commands: remember, recall and import."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from cognimem.cli.common import DbOption, UserOption, err, out, progress_bar, run
from cognimem.errors import InvalidInput
from cognimem.memory import Memory


def remember(
    text: Annotated[str, typer.Argument(help="What to remember.")],
    user: UserOption = None,
    name: Annotated[str | None, typer.Option(help="Author (speaker) name.")] = None,
    profile: Annotated[
        str,
        typer.Option(
            help="chat, document, mandate, guardrail, tool_discovery, tool_gotcha or learning."
        ),
    ] = "chat",
    db: DbOption = None,
) -> None:
    """Write one message (and print the facts it created or changed)."""

    async def go() -> None:
        async with Memory.open(db) as mem:
            result = await mem.write(text, user_id=user, name=name, profile=profile)
            k = result.knowledge
            changed = await mem.store.get_facts("default", [*k.facts_created, *k.facts_reinforced])
        for m in result.messages:
            out.print(
                f"{m.outcome.value}: event {m.event_id}, items {', '.join(m.item_ids) or '-'}"
            )
        for f in changed:
            verb = "reinforced" if f.id in k.facts_reinforced else "fact"
            out.print(f"{verb}: {f.key} = {f.value}")
        for problem in result.degraded:
            out.print(f"degraded: {problem}")

    run(go)


def recall(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    user: UserOption = None,
    limit: Annotated[int, typer.Option(help="How many memories.")] = 10,
    max_tokens: Annotated[int, typer.Option(help="Token budget.")] = 2000,
    as_json: Annotated[bool, typer.Option("--json", help="Print the packet as JSON.")] = False,
    db: DbOption = None,
) -> None:
    """Read the memories that matter for a query."""

    async def go() -> None:
        async with Memory.open(db) as mem:
            packet = await mem.read(query, user_id=user, limit=limit, max_tokens=max_tokens)
        if as_json:
            sys.stdout.write(packet.model_dump_json(indent=2) + "\n")
        else:
            sys.stdout.write(packet.to_markdown())

    run(go)


def import_(
    path: Annotated[Path, typer.Argument(help="JSONL file, one message per line.", exists=True)],
    user: UserOption = None,
    batch: Annotated[int, typer.Option(help="Messages per write batch.")] = 200,
    db: DbOption = None,
) -> None:
    """Import turns from JSONL: {"content", "role"?, "name"?, "occurred_at"?, "user_id"?, ...}."""
    lines = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip():
            continue
        try:
            lines.append((number, json.loads(raw)))
        except json.JSONDecodeError as exc:
            err.print(f"[red]error[/red]: {path}:{number}: not JSON ({exc.msg})")
            raise typer.Exit(1) from exc

    async def go() -> int:
        stored = 0
        async with Memory.open(db) as mem:
            groups: dict[tuple[str | None, ...], list[dict[str, Any]]] = {}
            for number, row in lines:
                if not isinstance(row, dict):
                    raise InvalidInput(f"line {number}: expected an object", field=f"line {number}")
                key = tuple(row.pop(f, None) for f in ("user_id", "agent_id", "session_id"))
                groups.setdefault(key, []).append(row)
            with progress_bar() as progress:
                task = progress.add_task("importing", total=len(lines))
                for (user_id, agent_id, session_id), rows in groups.items():
                    for start in range(0, len(rows), batch):
                        part = rows[start : start + batch]
                        result = await mem.write_batch(
                            part, user_id=user_id or user, agent_id=agent_id, session_id=session_id
                        )
                        stored += sum(1 for m in result.messages if m.outcome.value == "stored")
                        progress.advance(task, len(part))
        return stored

    stored = run(go)
    out.print(f"imported {len(lines)} messages ({stored} new)")
