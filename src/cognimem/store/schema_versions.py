"""The schema versions of one backend, read from its ``migrations/`` package.

Each version is a module of its own, ``vNN_<name>.py``, holding its ``SQL``; the number
and the name recorded in ``schema_migrations`` are those of the file. A new migration is
a new file: two branches that each add one never touch the same lines. A number may
exist on one backend only; the numbering is shared.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable, Sequence

from cognimem.errors import SchemaMismatch

_VERSION_FILE = re.compile(r"v(\d+)_([a-z0-9_]+)")


def load_versions(package: str, path: Iterable[str]) -> list[tuple[int, str, str]]:
    """``(version, name, sql)`` of every version module in ``package``, in version order.

    Raises ``RuntimeError`` when two modules claim one number or a module has no ``SQL``
    text: a packaging mistake that must stop the process, never skip a migration.
    """
    found: dict[int, tuple[int, str, str]] = {}
    for module in pkgutil.iter_modules(list(path)):
        match = _VERSION_FILE.fullmatch(module.name)
        if match is None:
            continue
        version, name = int(match.group(1)), match.group(2)
        if version in found:
            raise RuntimeError(f"{package}: two modules for schema version {version}")
        sql = getattr(importlib.import_module(f"{package}.{module.name}"), "SQL", None)
        if not isinstance(sql, str) or not sql.strip():
            raise RuntimeError(f"{package}.{module.name} has no SQL text")
        found[version] = (version, name, sql)
    return [found[v] for v in sorted(found)]


def pending(
    migrations: Sequence[tuple[int, str, str]], applied: set[int]
) -> list[tuple[int, str, str]]:
    """The ``migrations`` a database that has the versions ``applied`` lacks, in version
    order whatever the list's: a number may be skipped (one backend's alone) and two
    branches may append theirs in either order. A version applied that this cognimem
    does not know is a ``SchemaMismatch``: the database is newer than the code."""
    unknown = applied - {version for version, _, _ in migrations}
    if unknown:
        raise SchemaMismatch(
            f"the database has schema versions {sorted(unknown)} that this cognimem "
            "does not know; upgrade cognimem"
        )
    return [m for m in sorted(migrations) if m[0] not in applied]
