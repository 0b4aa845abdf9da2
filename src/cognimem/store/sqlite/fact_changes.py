"""Which facts this process's own committed writes changed, per scope and
``fact_versions`` step: what lets a read patch its copy of a scope's facts
(``scope_facts.py``) instead of loading every fact again after a write.

Temporary triggers on the writer connection (they exist on that connection alone) note
every fact row it inserts, updates or deletes and every change of a ``fact_versions``
row; just before each write transaction commits, :meth:`FactChangeLog.collect` reads
and clears those notes, and after the commit :meth:`FactChangeLog.committed` records,
per scope whose version moved, one step: the version before the transaction, the one
after, and the ids of the scope's facts it touched. Nothing else is trusted: a version
step this process did not see (another process, another connection, a transaction
that rolled back, a deleted version row) has no entry, and a read then loads the scope
afresh (:meth:`FactChangeLog.between` answers None).
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass

# a scope as fact_versions names it: (tenant, namespace, user key)
Scope = tuple[str, str, str]

_STEPS_KEPT = 64  # version steps remembered per scope (a longer gap: a fresh load)
_SCOPES_KEPT = 1_024  # scopes whose steps are remembered (least recently written first out)
_WALK = 64  # steps a read chains at most from its copy's version to the current one

_USER_KEY = "CASE WHEN {row}.user_id IS NULL THEN '' ELSE 'u:' || {row}.user_id END"


def _noted(row: str) -> str:
    return (
        "INSERT OR IGNORE INTO cm_fact_changes VALUES"
        f" ({row}.tenant_id, {row}.namespace, {_USER_KEY.format(row=row)}, {row}.id);"
    )


_WATCH = [
    "CREATE TEMP TABLE IF NOT EXISTS cm_fact_changes (tenant_id TEXT, namespace TEXT,"
    " user_key TEXT, id TEXT, PRIMARY KEY (tenant_id, namespace, user_key, id))",
    "CREATE TEMP TABLE IF NOT EXISTS cm_version_steps (tenant_id TEXT, namespace TEXT,"
    " user_key TEXT, old INTEGER, new INTEGER)",
    "CREATE TEMP TRIGGER IF NOT EXISTS cm_fact_inserted AFTER INSERT ON main.facts"
    f" BEGIN {_noted('NEW')} END",
    "CREATE TEMP TRIGGER IF NOT EXISTS cm_fact_updated AFTER UPDATE ON main.facts"
    f" BEGIN {_noted('OLD')} {_noted('NEW')} END",
    "CREATE TEMP TRIGGER IF NOT EXISTS cm_fact_deleted AFTER DELETE ON main.facts"
    f" BEGIN {_noted('OLD')} END",
    # a version row that is new stands where version 0 was read (``fact_version``)
    "CREATE TEMP TRIGGER IF NOT EXISTS cm_version_inserted AFTER INSERT ON main.fact_versions"
    " BEGIN INSERT INTO cm_version_steps VALUES"
    " (NEW.tenant_id, NEW.namespace, NEW.user_key, 0, NEW.version); END",
    "CREATE TEMP TRIGGER IF NOT EXISTS cm_version_updated AFTER UPDATE ON main.fact_versions"
    " BEGIN INSERT INTO cm_version_steps VALUES"
    " (NEW.tenant_id, NEW.namespace, NEW.user_key, OLD.version, NEW.version); END",
    # a deleted row (an erasure): no step can be known across it
    "CREATE TEMP TRIGGER IF NOT EXISTS cm_version_deleted AFTER DELETE ON main.fact_versions"
    " BEGIN INSERT INTO cm_version_steps VALUES"
    " (OLD.tenant_id, OLD.namespace, OLD.user_key, OLD.version, NULL); END",
]


@dataclass(frozen=True)
class Step:
    """One transaction's move of a scope's version, and the scope's facts it touched
    (``new`` None: the version row was deleted, nothing is known past ``old``)."""

    scope: Scope
    old: int
    new: int | None
    ids: frozenset[str]


class FactChangeLog:
    """This process's committed steps of each scope's fact version (see the module)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # per scope: version before a step -> (version after, ids touched)
        self._steps: OrderedDict[Scope, OrderedDict[int, tuple[int, frozenset[str]]]] = (
            OrderedDict()
        )
        self._watched: set[int] = set()  # the connections (ids) whose triggers are made

    def watch(self, conn: sqlite3.Connection) -> bool:
        """Make the triggers on ``conn`` (the writer) once; False while its schema has no
        facts yet (a write before migrations), and nothing is then recorded."""
        if id(conn) in self._watched:
            return True
        try:
            for sql in _WATCH:
                conn.execute(sql)
        except sqlite3.OperationalError as exc:
            if "no such table" not in str(exc):
                raise
            return False
        self._watched.add(id(conn))
        return True

    def collect(self, conn: sqlite3.Connection) -> list[Step]:
        """The steps the open transaction on ``conn`` made, its notes cleared (call just
        before its COMMIT, so a rollback takes the notes with it)."""
        if id(conn) not in self._watched:
            return []
        moves = conn.execute(
            "SELECT tenant_id, namespace, user_key, old, new FROM temp.cm_version_steps"
            " ORDER BY rowid"
        ).fetchall()
        if not moves:
            conn.execute("DELETE FROM temp.cm_fact_changes")
            return []
        touched: dict[Scope, set[str]] = {}
        for tenant_id, namespace, user, fact_id in conn.execute(
            "SELECT tenant_id, namespace, user_key, id FROM temp.cm_fact_changes"
        ):
            touched.setdefault((tenant_id, namespace, user), set()).add(fact_id)
        conn.execute("DELETE FROM temp.cm_version_steps")
        conn.execute("DELETE FROM temp.cm_fact_changes")
        # per scope: its version before the transaction, and after (None once deleted)
        spans: dict[Scope, tuple[int, int | None]] = {}
        for tenant_id, namespace, user, old, new in moves:
            scope = (tenant_id, namespace, user)
            first, last = spans.get(scope, (int(old), int(old)))
            spans[scope] = (first, None if new is None or last is None else int(new))
        return [
            Step(scope, old, new, frozenset(touched.get(scope, ())))
            for scope, (old, new) in spans.items()
        ]

    def committed(self, steps: list[Step]) -> None:
        """Remember the steps of a transaction that committed."""
        with self._lock:
            for step in steps:
                if step.new is None:
                    self._steps.pop(step.scope, None)
                    continue
                known = self._steps.pop(step.scope, None) or OrderedDict()
                known[step.old] = (step.new, step.ids)
                while len(known) > _STEPS_KEPT:
                    known.popitem(last=False)
                self._steps[step.scope] = known
            while len(self._steps) > _SCOPES_KEPT:
                self._steps.popitem(last=False)

    def between(self, scope: Scope, old: int, new: int) -> frozenset[str] | None:
        """The ids of the scope's facts that this process's steps from version ``old``
        to ``new`` touched; None when any step between them is not its own."""
        ids: set[str] = set()
        with self._lock:
            known = self._steps.get(scope)
            if known is None:
                return None
            version = old
            for _ in range(_WALK):
                if version == new:
                    return frozenset(ids)
                found = known.get(version)
                if found is None:
                    return None
                version, touched = found
                ids |= touched
            return frozenset(ids) if version == new else None

    def clear(self) -> None:
        with self._lock:
            self._steps.clear()


__all__ = ["FactChangeLog", "Step"]
