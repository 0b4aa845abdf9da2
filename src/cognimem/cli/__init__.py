"""The ``cognimem`` command line: a thin skin that calls ``Memory`` and prints.

One module per group of commands (``server``, ``worker``, ``memory``, ``knowledge``,
``erase``, ``transfer``, ``migrate``, ``lifecycle``, ``reembed``, ``bench``, ``keys``); this
module builds the Typer app from them, in the order ``--help`` lists.
"""

from __future__ import annotations

import typer

from cognimem.cli import (
    bench,
    erase,
    keys,
    knowledge,
    lifecycle,
    memory,
    migrate,
    reembed,
    server,
    transfer,
    worker,
)

app = typer.Typer(help="cognimem: a cognitive memory layer for LLM agents.", no_args_is_help=True)
app.command()(server.serve)
app.command()(server.mcp)
app.command()(worker.worker)
app.command()(memory.remember)
app.command()(memory.recall)
app.command()(memory.forget)
app.command()(memory.update)
app.command()(knowledge.facts)
app.command()(knowledge.conflicts)
app.command()(knowledge.stats)
app.command()(erase.erase)
app.command("import")(transfer.import_)
app.command()(transfer.export)
app.command()(migrate.migrate)
app.command()(lifecycle.lifecycle)
app.command()(reembed.reembed)

eval_app = typer.Typer(help="Benchmark harnesses.", no_args_is_help=True)
eval_app.command("locomo")(bench.eval_locomo)
app.add_typer(eval_app, name="eval")

keys_app = typer.Typer(
    help="HTTP API keys: create, list, revoke (database access is the authority).",
    no_args_is_help=True,
)
keys_app.command("create")(keys.keys_create)
keys_app.command("list")(keys.keys_list)
keys_app.command("revoke")(keys.keys_revoke)
app.add_typer(keys_app, name="keys")


def main() -> None:
    app()
