"""How well do time parsers resolve conversational time expressions to intervals?

The set is ``benchmarks/data/time_expressions.jsonl`` (provenance, licences and the
conventions behind every expected interval: ``benchmarks/data/time_expressions.md``),
with ``time_expressions_added.jsonl`` and ``time_expressions_added2.jsonl`` to
``time_expressions_added21.jsonl``: tune rows written later, each file frozen before the
code it measures changed. ``--set round2`` reads ``time_expressions_round2.jsonl`` instead:
a second set with halves of its own, written when the first tune half was saturated;
``--set round3`` the third (``time_expressions_round3.jsonl``, relative-heavy), and
``--set round3_added`` tune rows written after its tune misses were read, ``--set round4``
the fourth (``time_expressions_round4.jsonl``, counts from a day and spans), ``--set round5``
the fifth (``time_expressions_round5.jsonl``, how counts, units, directions and anchors of
relative expressions compose), ``--set round6`` the sixth (``time_expressions_round6.jsonl``,
times told from another event, recurring times, absolute dates and holidays), ``--set
round7`` the seventh (``time_expressions_round7.jsonl``, the same three kinds, at least 40
rows of each), ``--set round8`` the eighth (``time_expressions_round8.jsonl``, the same
three kinds, 48 rows of each, and 24 of the other three), ``--set added22`` weekday names
inside noun phrases ("the Sunday market"), "today" / "tonight" beside other times and
events told with no time word (``time_expressions_added22.jsonl``, halves of its own).
It was frozen before any parser was run on it. One JSON object per line: the
``sentence``, the ``expression`` and its character ``span``, the ``anchor`` (when it
was said), its ``tense`` (the caller knows it: ``past`` or ``future``; ``said``: not known,
read as ingest reads it, forwards when the sentence's own words look ahead), the expected
``start`` / ``end`` (dates, end exclusive), ``granularity``, ``approximate`` with a
``tolerance_days``, the ``kind`` and the ``split`` (``tune`` / ``check``, by source
document). Kinds: ``absolute`` (names a calendar date or period, perhaps without the
year), ``relative`` (counted from when it was said), ``duration`` (a span: "for three
years", "since 2019", "the past two weeks"), ``recurring`` (a habit: "every Monday"),
``vague`` ("recently", "early March", "the end of the month") and ``event`` (relative
to another event told in an earlier turn, given as ``context``: ``temporal`` reads it
as ingest does, dating each earlier turn's event and counting from the last; the
libraries read the sentence alone). A sentence in which ``temporal`` finds no time but
which tells of an event ("we adopted a puppy!") is dated as ingest dates it: by the
time the question before it asked about, else by the day it was said.

Scoring, per expression. A parser reads the sentence alone at the anchor; of the times
it finds, the one whose span overlaps the expression's span most is taken:

- *coverage*: an overlapping time with a start was found (expressions with an interval
  only; recurring ones have none);
- *exact*: its start and end dates are the expected ones (within ``tolerance_days``
  each for approximate ones; an open ``end`` — "since 2019" — accepts an open end or,
  when the start is before the anchor, one within a day of the anchor);
- *start*: its start date is the expected one (same tolerance);
- a *recurring* expression counts as exact (and start) when the parser finds no dated
  time overlapping it, or marks what it finds as recurring: dating a habit to one day
  is the error.

Speed: each parser reads every sentence of the set once after a warm-up, one sentence
at a time; mean and median microseconds per sentence.

Numeric dates are read month first for rows marked ``"locale": "US"`` and day first
otherwise (``date_order`` for ``temporal``, ``DATE_ORDER`` for dateparser).

Parsers: ``temporal`` (``cognimem.text.temporal.find_times``), ``dateparser``
(``search_dates``, then ``DateDataParser`` for the period of each found phrase),
``ctparse`` (one best parse per sentence) and ``recognizers`` (Microsoft
Recognizers-Text date-time model). The libraries are optional; a missing one is an
error naming it.

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/time_expressions.py [--parsers temporal,dateparser]
        [--out benchmarks/results] [--misses tune] [--split tune] [--before OLD.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from importlib import metadata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import describe

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "time_expressions.jsonl"
# rows written later for the tune half only, each frozen before the code it measured
ADDED = tuple(
    ROOT / "benchmarks" / "data" / f"time_expressions_added{n}.jsonl" for n in ("", *range(2, 22))
)
# a second set written from scratch (its own tune and check halves, by passage), for when
# the first set's tune half no longer shows what the parser misses
ROUND2 = ROOT / "benchmarks" / "data" / "time_expressions_round2.jsonl"
ROUND3 = ROOT / "benchmarks" / "data" / "time_expressions_round3.jsonl"
ROUND3_ADDED = ROOT / "benchmarks" / "data" / "time_expressions_round3_added.jsonl"
ROUND4 = ROOT / "benchmarks" / "data" / "time_expressions_round4.jsonl"
ROUND5 = ROOT / "benchmarks" / "data" / "time_expressions_round5.jsonl"
ROUND6 = ROOT / "benchmarks" / "data" / "time_expressions_round6.jsonl"
ROUND7 = ROOT / "benchmarks" / "data" / "time_expressions_round7.jsonl"
ROUND8 = ROOT / "benchmarks" / "data" / "time_expressions_round8.jsonl"
# weekday names inside noun phrases, "today" beside other times, events with no time word
ADDED22 = ROOT / "benchmarks" / "data" / "time_expressions_added22.jsonl"
SETS = {"main": (DATA, *ADDED), "round2": (ROUND2,), "round3": (ROUND3,)}
SETS |= {"round3_added": (ROUND3_ADDED,), "round4": (ROUND4,), "round5": (ROUND5,)}
SETS |= {"round6": (ROUND6,), "round7": (ROUND7,), "round8": (ROUND8,), "added22": (ADDED22,)}
KINDS = ("absolute", "relative", "duration", "recurring", "vague", "event")
SPLITS = ("tune", "check")
KNOWN_TENSES = ("past", "future")


@dataclass(frozen=True)
class Found:
    """One time a parser found: where, and the interval it names (dates, end exclusive;
    ``end`` None for an open interval; ``start`` None when it names no interval)."""

    span: tuple[int, int]
    start: date | None
    end: date | None
    recurring: bool = False


Parser = Callable[[dict[str, Any]], list[Found]]


def _anchor(row: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(row["anchor"])


def _ahead(row: dict[str, Any], looks_ahead: Callable[[str], object]) -> bool:
    """Whether the row is read forwards: its tense says so, or (``said``: the tense is
    not known, as at ingest) its sentence's own words look ahead."""
    if row["tense"] == "said":
        return looks_ahead(row["sentence"]) is not None
    return bool(row["tense"] == "future")


def _end_date(moment: datetime) -> date:
    """The exclusive end date of an interval that ends at ``moment``."""
    day = moment.date()
    return day if moment.time() == datetime.min.time() else day + timedelta(days=1)


# ----------------------------------------------------------------- parsers


def temporal_parser() -> Parser:
    from cognimem.ingest.thread import Thread
    from cognimem.text.events import LOOKS_AHEAD, event_period
    from cognimem.text.temporal import find_times

    def parse(row: dict[str, Any]) -> list[Found]:
        # as at ingest: the earlier turns' thread (the event told last, each turn dated
        # from the one before; whether it ended a span; the time a question asked about)
        anchor, thread = _anchor(row), Thread()
        for turn in (row["context"] or "").split(". "):
            told = event_period(
                turn, anchor, after=thread.after, answers=thread.answers, ended=thread.ended
            )
            thread = thread.said(turn, told)
        order = "month_first" if row.get("locale") == "US" else "day_first"
        mentions = find_times(
            row["sentence"],
            anchor,
            prefer_future=_ahead(row, LOOKS_AHEAD.search),
            after=thread.after,
            ended=thread.ended,
            date_order=order,
        )
        found = [
            Found(m.span, m.start.astimezone(UTC).date(), _end_date(m.end.astimezone(UTC)))
            for m in mentions
        ]
        if found:
            return found
        # a sentence that names no time but tells of an event is dated as ingest dates
        # it: by the question it answers, or by when it was said
        period = event_period(
            row["sentence"],
            anchor,
            after=thread.after,
            date_order=order,
            answers=thread.answers,
            ended=thread.ended,
        )
        if period is None:
            return []
        start, end = (moment.astimezone(UTC) for moment in period)
        return [Found((0, len(row["sentence"])), start.date(), _end_date(end))]

    return parse


def _period_interval(moment: datetime, period: str) -> tuple[date, date]:
    day = moment.date()
    if period == "year":
        return date(day.year, 1, 1), date(day.year + 1, 1, 1)
    if period == "month":
        first = day.replace(day=1)
        return first, (first + timedelta(days=32)).replace(day=1)
    if period == "week":
        monday = day - timedelta(days=day.weekday())
        return monday, monday + timedelta(days=7)
    return day, day + timedelta(days=1)


def dateparser_parser() -> Parser:
    from dateparser import DateDataParser
    from dateparser.search import search_dates

    periods: dict[tuple[Any, ...], Any] = {}

    def parse(row: dict[str, Any]) -> list[Found]:
        settings = {
            "RELATIVE_BASE": _anchor(row).replace(tzinfo=None),
            "PREFER_DATES_FROM": row["tense"] if row["tense"] in KNOWN_TENSES else "current_period",
            "DATE_ORDER": "MDY" if row.get("locale") == "US" else "DMY",
            "RETURN_AS_TIMEZONE_AWARE": False,
        }
        text = row["sentence"]
        hits = search_dates(text, languages=["en"], settings=settings) or []
        found: list[Found] = []
        cursor = 0
        for phrase, moment in hits:
            at = text.find(phrase, cursor)
            if at < 0:
                continue
            cursor = at + len(phrase)
            key = tuple(sorted(settings.items()))
            if key not in periods:
                periods[key] = DateDataParser(languages=["en"], settings=settings)
            data = periods[key].get_date_data(phrase)
            start, end = _period_interval(moment, data.period or "day")
            found.append(Found((at, at + len(phrase)), start, end))
        return found

    return parse


def ctparse_parser() -> Parser:
    from ctparse import ctparse
    from ctparse.types import Interval, Time

    def _time_interval(t: Time) -> tuple[date, date] | None:
        if t.year is None and t.month is None and t.day is None:
            return None
        if t.day is not None and t.month is not None and t.year is not None:
            d = date(t.year, t.month, t.day)
            return d, d + timedelta(days=1)
        if t.month is not None and t.year is not None:
            return _period_interval(datetime(t.year, t.month, 1), "month")
        if t.year is not None and t.month is None:
            return date(t.year, 1, 1), date(t.year + 1, 1, 1)
        return None

    def parse(row: dict[str, Any]) -> list[Found]:
        best = ctparse(row["sentence"], ts=_anchor(row).replace(tzinfo=None), timeout=0)
        if best is None:
            return []
        res = best.resolution
        span = (res.mstart, res.mend)
        if isinstance(res, Interval):
            first = _time_interval(res.t_from) if res.t_from is not None else None
            last = _time_interval(res.t_to) if res.t_to is not None else None
            if first is None and last is None:
                return [Found(span, None, None)]
            return [Found(span, first[0] if first else None, last[1] if last else None)]
        if isinstance(res, Time):
            interval = _time_interval(res)
            if interval is None:
                return [Found(span, None, None)]
            return [Found(span, *interval)]
        return [Found(span, None, None)]

    return parse


def recognizers_parser() -> Parser:
    from recognizers_date_time import Culture, recognize_datetime

    def _pick(values: list[dict[str, Any]], tense: str | None) -> dict[str, Any]:
        if len(values) == 1 or tense not in KNOWN_TENSES:
            return values[-1]
        # ambiguous past/future readings come as [past, future]
        return values[0] if tense == "past" else values[-1]

    def _day(text: str) -> date:
        return datetime.fromisoformat(text).date()

    def parse(row: dict[str, Any]) -> list[Found]:
        results = recognize_datetime(
            row["sentence"], Culture.English, reference=_anchor(row).replace(tzinfo=None)
        )
        found: list[Found] = []
        for r in results:
            span = (r.start, r.end + 1)
            kind = r.type_name.rsplit(".", 1)[-1]
            values = (r.resolution or {}).get("values") or []
            if kind == "set":
                found.append(Found(span, None, None, recurring=True))
                continue
            if not values:
                found.append(Found(span, None, None))
                continue
            v = _pick(values, row["tense"])
            try:
                if "value" in v and kind in ("date", "datetime"):
                    d = _day(v["value"])
                    found.append(Found(span, d, d + timedelta(days=1)))
                elif "start" in v or "end" in v:
                    start = _day(v["start"]) if "start" in v else None
                    end = _end_date(datetime.fromisoformat(v["end"])) if "end" in v else None
                    found.append(Found(span, start, end))
                else:
                    found.append(Found(span, None, None))
            except ValueError:
                found.append(Found(span, None, None))
        return found

    return parse


def dateutil_parser() -> Parser:
    from dateutil import parser as du

    def _read(text: str, default: datetime, dayfirst: bool) -> datetime | None:
        try:
            moment: datetime = du.parse(text, default=default, fuzzy=True, dayfirst=dayfirst)
        except (ValueError, OverflowError):
            return None
        return moment

    def parse(row: dict[str, Any]) -> list[Found]:
        # one date per sentence (dateutil reads a whole text as one); the fields the text
        # names are those that do not change with the default (the granularity)
        text, dayfirst = row["sentence"], row.get("locale") != "US"
        a = _read(text, datetime(2001, 1, 1), dayfirst)
        b = _read(text, datetime(2002, 2, 2), dayfirst)
        if a is None or b is None:
            return []
        anchor = _anchor(row).replace(tzinfo=None)
        year = a.year if a.year == b.year else anchor.year
        if a.day == b.day:
            start = date(year, a.month, a.day)
            return [Found((0, len(text)), start, start + timedelta(days=1))]
        if a.month == b.month:
            return [Found((0, len(text)), *_period_interval(datetime(year, a.month, 1), "month"))]
        if a.year == b.year:
            return [Found((0, len(text)), *_period_interval(datetime(year, 1, 1), "year"))]
        return []

    return parse


# the distribution that carries each library parser, for the version in the report
DISTRIBUTIONS = {
    "dateparser": "dateparser",
    "ctparse": "ctparse",
    "dateutil": "python-dateutil",
    "recognizers": "recognizers-text-date-time",
}

PARSERS: dict[str, Callable[[], Parser]] = {
    "temporal": temporal_parser,
    "dateparser": dateparser_parser,
    "ctparse": ctparse_parser,
    "dateutil": dateutil_parser,
    "recognizers": recognizers_parser,
}


# ----------------------------------------------------------------- scoring


def _pick_found(row: dict[str, Any], found: Iterable[Found]) -> Found | None:
    lo, hi = row["span"]
    best, best_overlap = None, 0
    for f in found:
        overlap = min(hi, f.span[1]) - max(lo, f.span[0])
        if overlap > best_overlap:
            best, best_overlap = f, overlap
    return best


def score(row: dict[str, Any], found: Sequence[Found]) -> dict[str, bool | None]:
    """``covered`` (None for recurring expressions), ``exact`` and ``start``."""
    picked = _pick_found(row, found)
    if row["start"] is None:  # recurring: the error is dating it
        ok = picked is None or picked.recurring or picked.start is None
        return {"covered": None, "exact": ok, "start": ok}
    if picked is None or picked.start is None:
        return {"covered": False, "exact": False, "start": False}
    tol = timedelta(days=row["tolerance_days"])
    start_ok = abs(picked.start - date.fromisoformat(row["start"])) <= tol
    if row["end"] is None:
        # "since 2019" runs up to when it was said; Duckling's "since 2014", said in
        # 2013, runs on from its start, so only an open end fits it
        said = _anchor(row).date()
        up_to_now = date.fromisoformat(row["start"]) <= said
        end_ok = picked.end is None or (up_to_now and abs(picked.end - said) <= timedelta(days=1))
    else:
        end_ok = picked.end is not None and abs(picked.end - date.fromisoformat(row["end"])) <= tol
    return {"covered": True, "exact": start_ok and end_ok, "start": start_ok}


def _rate(values: list[bool]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def summarise(rows: Sequence[dict[str, Any]], scores: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per split and kind (and over all kinds): n, exact, start and coverage rates."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row, s in zip(rows, scores, strict=True):
        for kind in (row["kind"], "all"):
            groups[(row["split"], kind)].append(s)
    out: dict[str, Any] = {}
    for split in SPLITS:
        out[split] = {}
        for kind in (*KINDS, "all"):
            g = groups.get((split, kind), [])
            out[split][kind] = {
                "n": len(g),
                "exact": _rate([s["exact"] for s in g]),
                "start": _rate([s["start"] for s in g]),
                "coverage": _rate([s["covered"] for s in g if s["covered"] is not None]),
            }
    return out


def run_parser(
    name: str, rows: Sequence[dict[str, Any]]
) -> tuple[list[list[Found]], dict[str, float]]:
    parse = PARSERS[name]()
    for row in rows[:20]:  # warm-up: imports, caches, compiled patterns
        parse(row)
    found, micros = [], []
    for row in rows:
        t0 = time.perf_counter()
        found.append(parse(row))
        micros.append((time.perf_counter() - t0) * 1e6)
    speed = {
        "mean_us": round(statistics.fmean(micros), 1),
        "median_us": round(statistics.median(micros), 1),
    }
    return found, speed


def load(
    paths: Sequence[Path] = (
        DATA,
        *ADDED,
    ),
) -> list[dict[str, Any]]:
    return [
        json.loads(line) for path in paths for line in path.read_text().splitlines() if line.strip()
    ]


# ----------------------------------------------------------------- report


def _fmt(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def render(results: dict[str, Any], machine: dict[str, Any]) -> str:
    lines = [
        "# Time-expression set: parsers per kind",
        "",
        f"Machine: {machine['summary']}",
        "",
        f"Set: `{results['set']}`, {results['n']} expressions "
        f"(tune {results['n_split']['tune']}, check {results['n_split']['check']}). "
        "Exact interval / start only / coverage; recurring rows count as right when "
        "not dated. Speed: microseconds per sentence, mean (median).",
        "",
    ]
    names = list(results["parsers"])
    for split in (s for s in SPLITS if results["n_split"][s]):
        lines += [f"## {split}", "", "| kind | n | " + " | ".join(names) + " |"]
        lines.append("|---|---|" + "---|" * len(names))
        for kind in (*KINDS, "all"):
            n = results["parsers"][names[0]]["summary"][split][kind]["n"]
            cells = []
            for name in names:
                s = results["parsers"][name]["summary"][split][kind]
                cells.append(f"{_fmt(s['exact'])} / {_fmt(s['start'])} / {_fmt(s['coverage'])}")
            label = f"**{kind}**" if kind == "all" else kind
            lines.append(f"| {label} | {n} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += ["## speed", "", "| parser | version | mean µs | median µs |", "|---|---|---|---|"]
    for name in names:
        p = results["parsers"][name]
        sp = p["speed"]
        lines.append(
            f"| {name} | {p['version'] or 'this tree'} | {sp['mean_us']} | {sp['median_us']} |"
        )
    lines.append("")
    return "\n".join(lines)


def render_before(before: dict[str, Any], after: dict[str, Any]) -> str:
    """``temporal`` per split and kind: an earlier run (``before``, with its commit) →
    this one, exact / start / coverage."""
    was, now = before["parsers"]["temporal"], after["parsers"]["temporal"]
    commit = str(before["machine"]["source"].get("commit", "?"))[:7]
    lines = [f"## temporal: before (commit {commit}) → after", ""]
    for split in (s for s in SPLITS if after["n_split"][s]):
        lines += [f"### {split}", "", "| kind | n | before | after |", "|---|---|---|---|"]
        for kind in (*KINDS, "all"):
            cells = []
            for run in (was, now):
                s = run["summary"][split][kind]
                cells.append(f"{_fmt(s['exact'])} / {_fmt(s['start'])} / {_fmt(s['coverage'])}")
            n = now["summary"][split][kind]["n"]
            lines.append(f"| {kind} | {n} | " + " | ".join(cells) + " |")
        lines.append("")
    speed = f"{was['speed']['mean_us']} → {now['speed']['mean_us']}"
    lines += [f"Mean µs per sentence, temporal: {speed} (different runs and loads).", ""]
    return "\n".join(lines)


def misses(rows: Sequence[dict[str, Any]], found: Sequence[list[Found]], split: str) -> list[str]:
    out = []
    for row, f in zip(rows, found, strict=True):
        if row["split"] != split or score(row, f)["exact"]:
            continue
        got = _pick_found(row, f)
        shown = "nothing" if got is None else f"{got.start} .. {got.end}"
        out.append(
            f"{row['id']} [{row['kind']}] {row['sentence']!r} ({row['expression']!r} at "
            f"{row['anchor'][:10]}): want {row['start']} .. {row['end']}, got {shown}"
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parsers", default="temporal", help="comma-separated: " + ",".join(PARSERS))
    ap.add_argument("--out", type=Path, help="directory for time_expressions.{json,md}")
    ap.add_argument("--misses", choices=SPLITS, help="list the misses of one split per parser")
    ap.add_argument(
        "--split",
        choices=SPLITS,
        help="read only this split's rows (tune while working: the check half is read once)",
    )
    ap.add_argument(
        "--set",
        choices=sorted(SETS),
        default="main",
        help="main: time_expressions.jsonl and its added files; round2 to round8; added22",
    )
    ap.add_argument(
        "--before", type=Path, help="an earlier time_expressions.json: add a before/after table"
    )
    args = ap.parse_args(argv)
    names = [n.strip() for n in args.parsers.split(",") if n.strip()]
    unknown = [n for n in names if n not in PARSERS]
    if unknown:
        ap.error(f"unknown parser(s) {unknown}; choose from {sorted(PARSERS)}")
    rows = [r for r in load(SETS[args.set]) if args.split in (None, r["split"])]
    if not rows:
        ap.error(f"--set {args.set} has no rows in split {args.split!r}")
    machine = describe()
    results: dict[str, Any] = {
        "set": "time_expressions.jsonl" if args.set == "main" else SETS[args.set][0].name,
        "n": len(rows),
        "n_split": {s: sum(r["split"] == s for r in rows) for s in SPLITS},
        "parsers": {},
        "machine": machine,
    }
    for name in names:
        try:
            found, speed = run_parser(name, rows)
        except ImportError as exc:
            print(f"parser {name!r} needs a library that is not installed: {exc}", file=sys.stderr)
            return 2
        scores = [score(r, f) for r, f in zip(rows, found, strict=True)]
        dist = DISTRIBUTIONS.get(name)
        results["parsers"][name] = {
            "version": metadata.version(dist) if dist else None,
            "summary": summarise(rows, scores),
            "speed": speed,
        }
        if args.misses:
            print(f"\n## {name}: misses on {args.misses}")
            print("\n".join(misses(rows, found, args.misses)))
    report = render(results, machine)
    if args.before:
        report += "\n" + render_before(json.loads(args.before.read_text()), results)
    print(report)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "time_expressions.json").write_text(json.dumps(results, indent=1) + "\n")
        (args.out / "time_expressions.md").write_text(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
