"""What each pattern of the time parser contributes: every rule, every branch of an
alternation and every negative lookaround of its regexes taken out in turn, and the
readings that change counted.

Read, as :mod:`time_readings` reads them: the LoCoMo dev turns and questions (each
conversation on its own) and the tune half of the time-expression set (both tenses,
three date orders, with and without an event told before; and the calls its scoring
makes); with ``--unit``, the calls the unit tests made (recorded by a pytest plugin
into pickles of ``(text, reference, keywords)``). Every call of ``find_times`` is kept
with its answer (``event_period`` reads through it); a variant re-runs the calls whose
text its regex (before or after the change) finds something in (a module-level regex:
the calls that used it, traced once) and counts the answers that differ by where the
call came from (``tune``: the set's tune half; a LoCoMo conversation's id; ``unit``),
stopping at the first that earns the pattern its place (:data:`EARNS`) unless
``--all``. The check half is never read.

A branch whose alternatives are all plain words (a table of names), or that is a plain
word among more than four, is not taken apart.

Usage (from the repository root):

    PYTHONPATH=src:. python benchmarks/time_ablation.py LOCOMO.json [--only WORD]
        [--out /tmp/ablation.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import pickle
import re
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import time_expressions
import time_readings

from cognimem.eval.locomo import dev_five, load
from cognimem.text import dates, events, holidays, numeric_dates, periods, relative, temporal, told

# A measuring tool: it swaps the parser's private tables and regexes, by these names
# (the module-level regexes: :data:`_MODULE_REGEXES`), and puts them back after each
# variant; nothing else may reach into them.
COMPILED, TIME_WORDS, RULES = "_COMPILED", "_TIME_WORDS", "_RULES"
# where a change earns a pattern its place: the set's tune half, the folds' tune
# conversations (fold A: conv-26, conv-30; fold B: conv-42, conv-43)
EARNS = frozenset({"tune", "conv-26", "conv-30", "conv-42", "conv-43"})
_LITERAL = re.compile(r"(?:[A-Za-z0-9'’ ]|\\s[+*]?|\\[.'-]|\[\\s-\]|-)+")


@dataclass(frozen=True)
class Site:
    """One place of a regex's source: a branch (taken out by ``(?!)`` before it) or a
    negative lookaround (taken out whole)."""

    label: str
    start: int
    end: int
    kind: str  # "branch" or "lookaround"

    def apply(self, source: str) -> str:
        if self.kind == "branch":
            return source[: self.start] + "(?!)" + source[self.start :]
        return source[: self.start] + source[self.end :]


def sites(source: str) -> Iterator[Site]:
    """The branches of each alternation (not a table of words) and the negative
    lookarounds of ``source``."""
    stack: list[tuple[int, list[int], str]] = [(0, [0], "top")]
    i = 0
    while i < len(source):
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            j = i + 1
            if j < len(source) and source[j] == "^":
                j += 1
            j += 1  # a "]" first is a member
            while source[j] != "]":
                j += 2 if source[j] == "\\" else 1
            i = j + 1
            continue
        if c == "(":
            head = re.match(r"\((?:\?(?:<[=!]|[=!:]|P<\w+>|\(\w+\)|[aiLmsux-]+:))?", source[i:])
            assert head is not None
            skip = len(head.group(0)) if head.group(0) != "(" else 1
            kind = head.group(0)
            stack.append((i, [i + skip], kind))
            i += skip
            continue
        if c == "|":
            stack[-1][1].append(i + 1)
        if c == ")":
            opened, starts, kind = stack.pop()
            yield from _branches(source, starts, i, opened)
            if kind in ("(?!", "(?<!"):
                yield Site(
                    f"{kind}@{opened}: {source[opened : i + 1][:60]}", opened, i + 1, "lookaround"
                )
        i += 1
    _, starts, _ = stack.pop()
    yield from _branches(source, starts, len(source), 0)


def _branches(source: str, starts: list[int], end: int, opened: int) -> Iterator[Site]:
    if len(starts) < 2:
        return
    bounds = [*starts, end + 1]
    texts = [source[a : b - 1] for a, b in itertools.pairwise(bounds)]
    literal = [bool(_LITERAL.fullmatch(t)) for t in texts]
    if all(literal):
        return
    for a, t, word in zip(starts, texts, literal, strict=True):
        if word and len(texts) > 4:
            continue  # a word of a vocabulary ("seventeen" of the numbers)
        yield Site(f"branch@{a} (group@{opened}): {t[:70]}", a, a + len(t), "branch")


# ----------------------------------------------------------------- recording

Key = tuple[Any, ...]


class Recorder:
    """Every call of ``find_times`` and ``event_period`` made while a source is read."""

    def __init__(self) -> None:
        self.tag = ""
        self.calls: dict[Key, set[str]] = defaultdict(set)
        self.find = temporal.find_times
        self.period = events.event_period

    def install(self) -> None:
        def find(text: str, reference: Any, **kw: Any) -> Any:
            self.calls[("F", text, reference, tuple(sorted(kw.items())))].add(self.tag)
            return self.find(text, reference, **kw)

        def period(text: str, reference: Any, **kw: Any) -> Any:
            self.calls[("E", text, reference, tuple(sorted(kw.items())))].add(self.tag)
            return self.period(text, reference, **kw)

        for module in (temporal, events, time_readings):
            module.find_times = find  # type: ignore[attr-defined]
        for module in (time_readings,):
            module.event_period = period  # type: ignore[attr-defined]
        events.event_period = period  # type: ignore[assignment]

    def uninstall(self) -> None:
        for module in (temporal, events, time_readings):
            module.find_times = self.find  # type: ignore[attr-defined]
        time_readings.event_period = self.period  # type: ignore[attr-defined]
        events.event_period = self.period  # type: ignore[assignment]


def record(locomo: Path) -> dict[Key, set[str]]:
    rec = Recorder()
    rec.install()
    try:
        for conv in dev_five(load(locomo)):
            rec.tag = conv.sample_id
            for _ in time_readings.conversation_lines(conv):
                pass
        rec.tag = "tune"
        for _ in time_readings.tune_lines():
            pass
        parse = time_expressions.temporal_parser()
        for row in time_expressions.load():
            if row["split"] == "tune":
                parse(row)
    finally:
        rec.uninstall()
    return dict(rec.calls)


class _Traced:
    """A module's compiled regex that notes each call it is used in."""

    def __init__(self, inner: re.Pattern[str], hits: set[Key], current: list[Key]) -> None:
        self.inner, self.hits, self.current = inner, hits, current

    def __getattr__(self, attr: str) -> Any:
        self.hits.add(self.current[0])
        return getattr(self.inner, attr)


def trace(keys: Sequence[Key]) -> dict[tuple[ModuleType, str], set[Key]]:
    """For each module-level regex, the calls of ``keys`` that use it."""
    current: list[Key] = [()]
    hits: dict[tuple[ModuleType, str], set[Key]] = {}
    for module, name in _MODULE_REGEXES:
        hits[(module, name)] = set()
        setattr(module, name, _Traced(getattr(module, name), hits[(module, name)], current))
    try:
        for key in keys:
            current[0] = key
            answer(key)
    finally:
        for module, name in _MODULE_REGEXES:
            setattr(module, name, getattr(module, name).inner)
    return hits


def answer(key: Key) -> str:
    what, text, reference, kw = key
    if what == "F":
        return time_readings.fmt(temporal.find_times(text, reference, **dict(kw)))
    return time_readings.period(events.event_period(text, reference, **dict(kw)))


# ----------------------------------------------------------------- variants


@dataclass
class Variant:
    label: str
    apply: Callable[[], None]
    undo: Callable[[], None]
    touches: Callable[[str], bool]


_RULE_MODULES: tuple[tuple[str, ModuleType], ...] = (
    ("dates", dates),
    ("holidays", holidays),
    ("periods", periods),
    ("relative", relative),
)


def _rules() -> list[tuple[str, tuple[Any, ...]]]:
    """Every pattern rule with a name: ``module[i]``, the numeric ones ``numeric[i]``."""
    named = [(f"dates[{i}]", r) for i, r in enumerate(dates.PATTERNS)]
    named += [(f"periods[{i}]", r) for i, r in enumerate(periods.PATTERNS)]
    named += [(f"relative[{i}]", r) for i, r in enumerate(relative.PATTERNS)]
    return named


def _rebuild(
    patterns: Sequence[tuple[Any, ...]], numeric: Callable[[str], tuple[Any, ...]]
) -> None:
    compiled = {
        order: tuple(
            (needs or temporal.DIGIT_OR, re.compile(p, re.IGNORECASE), h)
            for needs, p, h in (*patterns, *(numeric(order) if order else ()))
        )
        for order in (None, "month_first", "day_first")
    }
    setattr(temporal, COMPILED, compiled)
    words = {w for needs, _, _ in patterns if needs is not None for w in needs}
    setattr(temporal, TIME_WORDS, frozenset({"shortly", "soon"} | words))


def rule_variants() -> Iterator[Variant]:
    base = [*dates.PATTERNS, *periods.PATTERNS, *relative.PATTERNS]
    names = [n for n, _ in _rules()]
    saved = getattr(temporal, COMPILED), getattr(temporal, TIME_WORDS)

    def undo() -> None:
        setattr(temporal, COMPILED, saved[0])
        setattr(temporal, TIME_WORDS, saved[1])

    num = numeric_dates.numeric_patterns

    for i, (_, source, _) in enumerate(base):

        def drop(i: int = i) -> None:
            _rebuild(base[:i] + base[i + 1 :], num)

        def swap(changed: str, i: int = i) -> None:
            rules = list(base)
            rules[i] = (rules[i][0], changed, rules[i][2])
            _rebuild(rules, num)

        yield from _rule_variants(names[i], source, drop, swap, undo)
    for j, (_, source, _) in enumerate(num("month_first")):

        def drop_num(j: int = j) -> None:
            _rebuild(base, lambda o: tuple(r for k, r in enumerate(num(o)) if k != j))  # type: ignore[arg-type]

        def swap_num(changed: str, j: int = j) -> None:
            def patterns(o: str) -> tuple[Any, ...]:
                rules = list(num(o))  # type: ignore[arg-type]
                rules[j] = (rules[j][0], changed, rules[j][2])
                return tuple(rules)

            _rebuild(base, patterns)

        yield from _rule_variants(f"numeric[{j}]", source, drop_num, swap_num, undo)


def _rule_variants(
    name: str,
    source: str,
    drop: Callable[[], None],
    swap: Callable[[str], None],
    undo: Callable[[], None],
) -> Iterator[Variant]:
    """One rule taken out whole, then each of its sites changed in turn."""
    compiled = re.compile(source, re.IGNORECASE)
    yield Variant(f"{name} whole", drop, undo, lambda t: bool(compiled.search(t)))
    for site in sites(source):
        changed = site.apply(source)
        try:
            new = re.compile(changed, re.IGNORECASE)
        except re.error:
            continue
        yield Variant(
            f"{name} {site.label}",
            lambda changed=changed: swap(changed),
            undo,
            lambda t, n=new: bool(compiled.search(t) or n.search(t)),
        )


_MODULE_REGEXES: tuple[tuple[ModuleType, str], ...] = (
    (temporal, "_BEFORE_AFTER"),
    (dates, "_PLAN_NOW"),
    (numeric_dates, "_SCORE"),
    (numeric_dates, "_DATE_WORD"),
    (holidays, "_TIME_BEFORE"),
    (holidays, "_OCCASION_AFTER"),
    *((told, n) for n in ("_DURATION", "_BARE", "_UNIT_ENDS", "_PERFECT", "_PAST_PERFECT")),
    *((told, n) for n in ("_CLAUSE_BREAK", "_OPENS", "_RUNS_FROM", "_LATER")),
    *((told, n) for n in ("_PART_OF", "_HABIT", "_HABIT_TOLD", "_AFTER_HABIT")),
    *((told, n) for n in ("_BETWEEN", "_BETWEEN_BEFORE")),
)


def module_variants(used: dict[tuple[ModuleType, str], set[Key]]) -> Iterator[Variant]:
    for module, name in _MODULE_REGEXES:
        texts = {key[1] for key in used[(module, name)]}
        compiled: re.Pattern[str] = getattr(module, name)
        short = f"{module.__name__.rsplit('.', 1)[-1]}.{name}"

        def put(value: object, module: ModuleType = module, name: str = name) -> None:
            setattr(module, name, value)

        never = re.compile(r"(?!)")
        yield Variant(
            f"{short} whole",
            lambda p=put, n=never: p(n),
            lambda p=put, c=compiled: p(c),
            lambda t, texts=texts: t in texts,  # type: ignore[misc]
        )
        for site in sites(compiled.pattern):
            try:
                new = re.compile(site.apply(compiled.pattern), compiled.flags)
            except re.error:
                continue
            yield Variant(
                f"{short} {site.label}",
                lambda p=put, n=new: p(n),
                lambda p=put, c=compiled: p(c),
                lambda t, texts=texts: t in texts,  # type: ignore[misc]
            )


def holiday_variants() -> Iterator[Variant]:
    saved = getattr(holidays, RULES)
    for i, (names, _) in enumerate(holidays.HOLIDAYS):

        def drop(i: int = i) -> None:
            setattr(holidays, RULES, saved[:i] + saved[i + 1 :])

        def undo() -> None:
            setattr(holidays, RULES, saved)

        pattern = re.compile(rf"\b(?:{names})", re.IGNORECASE)
        yield Variant(f"holiday {names[:60]}", drop, undo, lambda t, c=pattern: bool(c.search(t)))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("locomo", type=Path)
    ap.add_argument("--only", default="", help="only the variants whose label holds this")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--all", action="store_true", help="count every changed answer")
    ap.add_argument("--unit", type=Path, nargs="*", default=[], help="recorded unit calls")
    ap.add_argument("--labels", type=Path, help="only the variants listed in this file")
    ap.add_argument("--no-rules", action="store_true", help="only the module regexes, holidays")
    args = ap.parse_args(argv)
    calls = {k: tags for k, tags in record(args.locomo).items() if k[0] == "F"}
    for path in args.unit:  # calls the unit tests made, recorded by a pytest plugin
        for text, reference, kw in pickle.loads(path.read_bytes()):
            calls.setdefault(("F", text, reference, kw), set()).add("unit")
    wanted = set(args.labels.read_text().splitlines()) if args.labels else None
    base = {key: answer(key) for key in calls}
    by_text: dict[str, list[Key]] = defaultdict(list)
    for key in calls:
        by_text[key[1]].append(key)
    print(f"calls {len(calls)}, texts {len(by_text)}", flush=True)
    results = []
    used = trace(list(calls))
    rules = () if args.no_rules else rule_variants()
    for variant in (*rules, *module_variants(used), *holiday_variants()):
        if args.only not in variant.label or (wanted is not None and variant.label not in wanted):
            continue
        texts = [keys for text, keys in by_text.items() if variant.touches(text)]
        # one call of each text first, then the rest: a change that earns the variant
        # its place is found early, and the search stops there (``--all``: counts them all)
        touched = [keys[0] for keys in texts] + [k for keys in texts for k in keys[1:]]
        variant.apply()
        try:
            changed = []
            for k in touched:
                if answer(k) != base[k]:
                    changed.append(k)
                    if not args.all and not calls[k].isdisjoint(EARNS):
                        break
        finally:
            variant.undo()
        by_tag: dict[str, int] = defaultdict(int)
        for k in changed:
            for tag in calls[k]:
                by_tag[tag] += 1
        example = [f"{k[1][:100]!r}: {base[k]} -> {_after(variant, k)}" for k in changed[:3]]
        results.append({"variant": variant.label, "changed": dict(by_tag), "examples": example})
        print(f"{variant.label}\t{dict(sorted(by_tag.items()))}", flush=True)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


def _after(variant: Variant, key: Key) -> str:
    variant.apply()
    try:
        return answer(key)
    finally:
        variant.undo()


if __name__ == "__main__":
    raise SystemExit(main())
