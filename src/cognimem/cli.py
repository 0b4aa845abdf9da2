"""The ``cognimem`` command line: a thin skin that calls ``Memory`` and prints."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cognimem.config import Settings
from cognimem.errors import CognimemError, InvalidInput
from cognimem.logs import configure_logging
from cognimem.memory import Memory
from cognimem.models.admin import ApiKey
from cognimem.store import Store, open_store
from cognimem.store.sqlite.store import path_from_url

T = TypeVar("T")

app = typer.Typer(help="cognimem: a cognitive memory layer for LLM agents.", no_args_is_help=True)
eval_app = typer.Typer(help="Benchmark harnesses.", no_args_is_help=True)
app.add_typer(eval_app, name="eval")
keys_app = typer.Typer(
    help="HTTP API keys: create, list, revoke (database access is the authority).",
    no_args_is_help=True,
)
app.add_typer(keys_app, name="keys")
out = Console()
err = Console(stderr=True)

DbOption = Annotated[
    str | None,
    typer.Option("--db", help="Database URL (default: COGNIMEM_DATABASE_URL or the data dir)."),
]
UserOption = Annotated[str | None, typer.Option("--user", "-u", help="User id of the scope.")]


def _run(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine and turn cognimem errors into a message and exit code 1."""
    try:
        return asyncio.run(make())
    except CognimemError as exc:
        err.print(f"[red]error[/red] ({exc.type}): {exc.message}")
        raise typer.Exit(1) from exc


@app.command()
def serve(
    db: DbOption = None,
    host: Annotated[str | None, typer.Option(help="Interface to bind.")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on.")] = None,
) -> None:
    """Run the HTTP API on the embedded default (or the configured database)."""
    try:
        import uvicorn

        from cognimem.api import create_app
    except ImportError as exc:  # pragma: no cover - depends on the install
        err.print(
            "the server needs the 'server' extra: pip install 'cognimem[server]'", markup=False
        )
        raise typer.Exit(1) from exc
    settings = Settings()
    url = db or settings.database_url
    host = host or settings.server.host
    port = settings.server.port if port is None else port
    memory = Memory.open(url, settings=settings)
    where = path_from_url(url) if url.startswith("sqlite") else url
    # plain print: a console would wrap the path, and users copy it
    print(f"cognimem serving on http://{host}:{port}  (data: {where})", flush=True)
    print(f"API docs: http://{host}:{port}/docs", flush=True)
    # uvicorn re-raises SIGTERM after its graceful shutdown with the handler it found;
    # make that handler a clean exit so a stopped server reports status 0
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    configure_logging(settings.log.format, settings.log.level)
    # uvicorn keeps its hands off logging: records go through our handler, and the
    # app's middleware writes the access log (with request id and tenant)
    uvicorn.run(
        create_app(memory),
        host=host,
        port=port,
        log_config=None,
        log_level=settings.log.level.lower(),
        access_log=False,
        timeout_keep_alive=settings.server.keep_alive_s,
    )


@app.command()
def mcp(db: DbOption = None) -> None:
    """Run the MCP server over stdio, for MCP clients; the scope comes from COGNIMEM_MCP__*."""
    import logging

    # stdout carries the protocol: every log line goes to stderr
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        from cognimem.mcp import build_server
    except ModuleNotFoundError as exc:
        if exc.name is None or exc.name.partition(".")[0] != "mcp":
            raise
        # no markup: rich would take "[mcp]" for a style tag and drop it
        err.print("the MCP server needs the 'mcp' extra: pip install 'cognimem[mcp]'", markup=False)
        raise typer.Exit(1) from exc
    try:
        build_server(Settings(), url=db).run("stdio")
    except* CognimemError as group:
        # the Memory opens inside the server's task group, so its errors come grouped
        first = _first_error(group)
        err.print(f"[red]error[/red] ({first.type}): {first.message}")
        raise typer.Exit(1) from first


def _first_error(group: BaseExceptionGroup[CognimemError]) -> CognimemError:
    found = group.exceptions[0]
    return found if isinstance(found, CognimemError) else _first_error(found)


@app.command()
def worker(
    db: DbOption = None,
    name: Annotated[str | None, typer.Option(help="Worker name (default: host:pid).")] = None,
) -> None:
    """Run async-ingestion jobs until interrupted (SIGINT / SIGTERM)."""
    import os
    import socket

    worker_name = name or f"{socket.gethostname()}:{os.getpid()}"

    async def go() -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        async with Memory.open(db) as mem:
            print(f"cognimem worker {worker_name} started", flush=True)
            return await mem.run_worker(worker_name, stop=stop)

    handled = _run(go)
    print(f"cognimem worker {worker_name} stopped after {handled} job(s)", flush=True)


@app.command()
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

    _run(go)


@app.command()
def recall(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    user: UserOption = None,
    all_users: Annotated[
        bool, typer.Option("--all-users", help="Read every user's memories (not with --user).")
    ] = False,
    limit: Annotated[int, typer.Option(help="How many memories.")] = 10,
    max_tokens: Annotated[int, typer.Option(help="Token budget.")] = 2000,
    as_json: Annotated[bool, typer.Option("--json", help="Print the packet as JSON.")] = False,
    db: DbOption = None,
) -> None:
    """Read the memories that matter for a query: one user's (--user), or every user's
    (--all-users)."""
    if user is None and not all_users:
        err.print("[red]error[/red]: pass --user USER, or --all-users to read every user")
        raise typer.Exit(2)

    async def go() -> None:
        async with Memory.open(db) as mem:
            packet = await mem.read(
                query, user_id=user, all_users=all_users, limit=limit, max_tokens=max_tokens
            )
        if as_json:
            sys.stdout.write(packet.model_dump_json(indent=2) + "\n")
        else:
            sys.stdout.write(packet.to_markdown())

    _run(go)


@app.command("import")
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
            with _progress() as progress:
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

    stored = _run(go)
    out.print(f"imported {len(lines)} messages ({stored} new)")


@eval_app.command("locomo")
def eval_locomo(
    path: Annotated[Path, typer.Argument(help="LoCoMo JSON file (official format).", exists=True)],
    json_out: Annotated[Path | None, typer.Option("--json", help="Write results as JSON.")] = None,
    preset: Annotated[str, typer.Option(help="Recall preset to evaluate.")] = "balanced",
    db: Annotated[
        str | None, typer.Option("--db", help="Database URL (default: a temporary file).")
    ] = None,
) -> None:
    """Evidence recall on LoCoMo (BENCHMARKS.md protocol), categories 1–4."""
    from cognimem.eval import locomo

    conversations = locomo.load(path)
    total_turns = sum(len(s) for c in conversations for s in c.sessions)
    total_questions = sum(len(c.questions) for c in conversations)

    async def go() -> locomo.Report:
        with tempfile.TemporaryDirectory() as tmp:
            async with Memory.open(db or f"sqlite:///{tmp}/locomo.db") as mem:
                with _progress() as progress:
                    ingest = progress.add_task("ingesting turns", total=total_turns)
                    ask = progress.add_task("asking questions", total=total_questions)
                    return await locomo.evaluate(
                        mem,
                        conversations,
                        preset=preset,
                        on_turns=lambda n: progress.advance(ingest, n),
                        on_question=lambda: progress.advance(ask),
                    )

    report = _run(go)
    sys.stdout.write(locomo.render(report) + "\n")
    if json_out is not None:
        json_out.write_text(json.dumps(report.to_json(), indent=2) + "\n", encoding="utf-8")
        out.print(f"wrote {json_out}")


@asynccontextmanager
async def _store(db: str | None) -> AsyncIterator[Store]:
    """The configured store alone (no embedder, no queue): key management needs no more."""
    store = open_store(db or Settings().database_url)
    await store.open()
    try:
        yield store
    finally:
        await store.close()


def _key_line(key: ApiKey) -> str:
    state = "revoked" if key.revoked_at else "active"
    if key.revoked_at is None and key.expires_at is not None:
        state = f"expires {key.expires_at.isoformat()}"
    limit = key.rate_limit_per_minute or "default"
    return (
        f"{key.id}\t{key.tenant_id}\t{key.prefix}…\t{key.name or '-'}\t{state}"
        f"\trate limit {limit}/min\tcreated {key.created_at.isoformat()}"
    )


@keys_app.command("create")
def keys_create(
    tenant: Annotated[str, typer.Option("--tenant", "-t", help="Tenant the key acts for.")],
    name: Annotated[str, typer.Option(help="A label to tell keys apart.")] = "",
    expires_in_days: Annotated[
        float | None, typer.Option(help="Expire the key after this many days.", min=0.001)
    ] = None,
    rate_limit: Annotated[
        int | None,
        typer.Option(
            help="Requests per minute (default: COGNIMEM_AUTH__RATE_LIMIT_PER_MINUTE).", min=1
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Create an API key for a tenant and print its secret (shown this once only)."""
    from cognimem.api.auth import issue_key

    async def go() -> tuple[ApiKey, str]:
        now = datetime.now(UTC)
        expires = None if expires_in_days is None else now + timedelta(days=expires_in_days)
        async with _store(db) as store:
            return await issue_key(
                store,
                tenant,
                name=name,
                expires_at=expires,
                rate_limit_per_minute=rate_limit,
                now=now,
            )

    key, secret = _run(go)
    err.print(f"created key {key.id} for tenant {key.tenant_id}; the secret is shown only once:")
    sys.stdout.write(f"id: {key.id}\nsecret: {secret}\n")


@keys_app.command("list")
def keys_list(
    tenant: Annotated[str | None, typer.Option("--tenant", "-t", help="Only this tenant.")] = None,
    db: DbOption = None,
) -> None:
    """List keys (id, tenant, prefix, name, state); never secrets."""

    async def go() -> list[ApiKey]:
        async with _store(db) as store:
            return await store.list_api_keys(tenant)

    for key in _run(go):
        sys.stdout.write(_key_line(key) + "\n")


@keys_app.command("revoke")
def keys_revoke(
    key_id: Annotated[str, typer.Argument(help="The key's id (from `cognimem keys list`).")],
    db: DbOption = None,
) -> None:
    """Revoke a key at once; requests with it are refused from now on."""
    from cognimem.api.auth import revoke_key

    async def go() -> ApiKey:
        async with _store(db) as store:
            return await revoke_key(store, key_id)

    key = _run(go)
    sys.stdout.write(f"revoked {key.id} (tenant {key.tenant_id})\n")


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=not err.is_terminal,
    )


def main() -> None:
    app()
