"""A scope's filter columns take a write's rows without copying the ones they hold, and
no entry ever sees another entry's rows."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from cognimem.store.scope_columns import STATUS_CODES, Columns

ACTIVE, ARCHIVED = STATUS_CODES["active"], STATUS_CODES["archived"]


def _cols(start: int, n: int, status: str = "active") -> Columns:
    rows = [(start + i, f"m{start + i}", None, f"s{start + i}", "episode", status, start + i,
             None, None) for i in range(n)]  # fmt: skip
    return Columns.of(rows)


def _ids(cols: Columns) -> list[str]:
    return [str(i) for i in cols.ids.tolist()]


def test_appends_write_after_the_rows_and_older_entries_keep_theirs() -> None:
    entries = [_cols(0, 8)]
    for start, n in ((8, 1), (9, 1), (10, 5), (15, 1)):
        entries.append(entries[-1].append(_cols(start, n)))
    for entry in entries:
        n = len(entry)
        assert _ids(entry) == [f"m{r}" for r in range(n)]
        assert entry.session.tolist() == [f"s{r}" for r in range(n)]
        assert entry.occurred.tolist() == list(range(n))
        assert entry.status.tolist() == [ACTIVE] * n
    # one row after nine (room for two more): written after them, not a copy of them
    assert np.shares_memory(entries[1].ids, entries[2].ids)
    # five after ten did not fit: a new array, with room again
    assert not np.shares_memory(entries[2].ids, entries[3].ids)
    assert np.shares_memory(entries[3].ids, entries[4].ids)


def test_two_entries_appending_from_the_same_rows_do_not_write_under_each_other() -> None:
    first = _cols(0, 10).append(_cols(10, 1))  # room for a few more after 11 rows
    newer = first.append(_cols(11, 2))
    # the older entry takes other rows (another reader's load, a later write)
    other = first.append(_cols(100, 2, status="archived"))
    assert _ids(newer)[11:] == ["m11", "m12"]
    assert newer.status[11:].tolist() == [ACTIVE, ACTIVE]
    assert _ids(other)[11:] == ["m100", "m101"]
    assert other.status[11:].tolist() == [ARCHIVED, ARCHIVED]
    assert _ids(first) == [f"m{r}" for r in range(11)]


def test_a_column_replaced_after_a_status_change_is_extended_apart() -> None:
    entry = _cols(0, 10).append(_cols(10, 1))
    status = entry.status.copy()
    status[3] = ARCHIVED
    restated = replace(entry, status=status)  # the statuses read again
    grown = restated.append(_cols(11, 1))
    later = entry.append(_cols(11, 1))
    assert grown.status.tolist() == [ACTIVE] * 3 + [ARCHIVED] + [ACTIVE] * 8
    assert later.status.tolist() == [ACTIVE] * 12
    assert _ids(grown) == _ids(later) == [f"m{r}" for r in range(12)]
