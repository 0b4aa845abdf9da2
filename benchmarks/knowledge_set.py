"""What the embedded (no LLM) write path knows after short conversations, measured on
the frozen knowledge set ``benchmarks/data/knowledge_set.jsonl`` (labelling guide:
``benchmarks/data/knowledge_set.md``).

Each passage is a few user turns of chat with an assistant, labelled with the facts a
careful reader would record (per turn, with their subject), the entities (type,
canonical name, aliases), the pronoun links and, for restatement pairs, whether the
second turn says the same thing again. A turn with no labelled fact must produce
nothing. Passages are split into ``tune`` and ``check`` halves, balanced by kind;
every number is reported for each half.

Two levels, each where the behaviour lives:

- **facts** (what the rules read): ``RuleExtractor.extract_one`` per turn, turns in
  order, one minute apart from 2024-06-15T12:00Z, each with the passage's earlier
  turns as its context (the conversation window the write path passes). A predicted
  fact matches a labelled one when subject (the user, or the same name or one of its
  aliases), category, predicate, polarity and holds are equal and the values match as in
  ``extraction_quality.py``. Reported: micro precision / recall / F1, per relation
  type (``category/predicate``), and false facts per 100 turns that must produce
  nothing (by reason for the single-sentence "nothing" passages).
- **entities, aliases, pronouns, renewal** (what the store holds after resolution
  across turns): each passage is written turn by turn through ``Memory.write`` (SQLite
  file, the default local embedder unless ``--embedder hashing``, no LLM), one user
  per passage. Entity typing: the
  stored entity named by the canonical name or an alias has the labelled type. Alias:
  the alias is on the canonical entity and names no other entity. Pronoun link: a fact
  written from the pronoun's turn has the antecedent as subject, or, when no fact
  about a third party was written from it, the turn's item is linked to the
  antecedent's entity (its ``entities``: "Her clinic is in Brooklyn" tells no fact, the
  item is still Maya's) (right); a fact or an item link names another third party
  (wrong); or neither (unresolved). Renewal: the first turn's fact counts
  the second turn as evidence when the pair restates, and does not when it does not.
- **pronouns resolved (rules)**: the same pronoun labels, read at the rules' rewrite
  (``Discourse.resolve`` while the turn is read with its window): right when the
  pronoun is rewritten as the antecedent (or one of its names), wrong when as someone
  else, whether or not a fact is read from the turn ("She goes by Kate" writes an
  alias and no fact, so the store-level link above cannot see it). A store-level link
  that is not right is counted by why: the turn has no labelled fact about the
  antecedent (an alias, a remark), the rules read no fact about the antecedent from
  the turn, or they read one and the store kept none from that turn.

Item-level output (missed and unlabelled facts, store notes naming passages) is
printed for the tune half only; the check half gets its aggregates and per-reason
counts, so nobody tuning the rules reads a check item by running the harness.

``--data`` scores another set of the same form instead (``knowledge_set_round2.jsonl``:
127 new passages of every kind, a second set to tune against; ``knowledge_set_round3.jsonl``:
132 more, 78 of them "nothing" turns of thirteen reasons; ``knowledge_nothing_round10.jsonl``:
hard turns that must produce nothing, near the constraint phrasings of
``constraint_forms_round10.jsonl``; ``knowledge_set_round4.jsonl``: statements that gave
a false fact, a quote with "was like", a question the speaker asks, a statement before
someone's opinion, someone else's pet; ``knowledge_set_round5.jsonl``: 112 passages
weighted toward false facts: plans, sarcasm, statements about other people, a third
person's facts that are never the user's; ``knowledge_set_round7.jsonl``: 126 single
turns weighted toward the false facts left on the earlier tune halves: a team one is a
fan of, a goal's scope, lists, corrections, contrasts, a job at an unnamed workplace,
promotions, asides, sarcasm, plans that did not happen; ``knowledge_nothing_round12.jsonl``: 224
single turns of fourteen reasons that must produce nothing, negations, hypotheticals,
conditionals, wishes, questions (direct, indirect, tag), reported speech, jokes,
sarcasm, figures of speech, tentative plans, generic statements and fiction, with 104
control turns of the same shapes that state a true fact, split by id parity, odd ids
tune).

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/knowledge_set.py [--out benchmarks/results/knowledge_set.md]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cognimem import Memory, Settings
from cognimem.ingest.extract.coref import Link
from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.ingest.extract.vocabulary import RELATIONS
from cognimem.models.extraction import ExtractedFact, ExtractionInput
from cognimem.providers.fakes import HashingEmbedder
from cognimem.text.names import SELF_SUBJECT, is_self, normalize_name, subject_slug

sys.path.insert(0, str(Path(__file__).resolve().parent))
from extraction_quality import describe_fact, values_match

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "knowledge_set.jsonl"
START = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
# the categories a rule against something is written in ("no alcohol")
_RULES = frozenset({"policy", "value"})
_NO = re.compile(r"^\s*no\s+", re.IGNORECASE)
SPLITS = ("tune", "check")


@dataclass(frozen=True)
class Passage:
    id: str
    split: str
    kind: str
    turns: tuple[str, ...]
    facts: tuple[dict[str, Any], ...]
    entities: tuple[dict[str, Any], ...] = ()
    coref: tuple[dict[str, Any], ...] = ()
    reason: str | None = None
    restates: bool | None = None

    def names_of(self, name: str) -> set[str]:
        """``name`` and, when it is a labelled entity, its canonical name and aliases."""
        norm = normalize_name(name)
        for e in self.entities:
            names = {normalize_name(n) for n in (e["name"], *e["aliases"])}
            if norm in names:
                return names
        return {norm}


def load(path: Path = DATA) -> list[Passage]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            raw = json.loads(line)
            rows.append(
                Passage(
                    raw["id"],
                    raw["split"],
                    raw["kind"],
                    tuple(raw["turns"]),
                    tuple(raw["facts"]),
                    tuple(raw.get("entities", ())),
                    tuple(raw.get("coref", ())),
                    raw.get("reason"),
                    raw.get("restates"),
                )
            )
    return rows


def said_at(turn: int) -> datetime:
    return START + timedelta(minutes=turn)


# --------------------------------------------------------------------- facts


@dataclass
class FactScore:
    gold: int = 0
    predicted: int = 0
    matched: int = 0
    by_relation: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    nothing_turns: int = 0
    nothing_facts: int = 0
    nothing_by_reason: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    misses: list[str] = field(default_factory=list)
    unlabelled: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.matched / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.gold if self.gold else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def false_per_100(self) -> float:
        return 100 * self.nothing_facts / self.nothing_turns if self.nothing_turns else 0.0


def _relation(word: str) -> str | None:
    """The relation an unnamed relative's word names: "dad" and "father" are one person
    (the guide labels an unnamed relative by the word said, the rules by its relation)."""
    return RELATIONS.get(normalize_name(word))


def same_subject(passage: Passage, gold: dict[str, Any], fact: ExtractedFact) -> bool:
    if gold["subject"] == "user":
        return is_self(fact.subject)
    if is_self(fact.subject):
        return False
    relation = _relation(gold["subject"])
    if relation is not None and relation == _relation(fact.subject):
        return True
    return normalize_name(fact.subject) in passage.names_of(gold["subject"])


def _stance(value: str, polarity: bool) -> tuple[str, bool]:
    """A rule against something written either way the same: "no alcohol" (the rule
    extractor's form, ``rules.py``, and ``extraction_quality``'s labels) or "alcohol"
    with polarity false (the LLM path's form and most of this set's labels; the set
    itself writes "no pork or alcohol" too). Both are "alcohol", polarity false here."""
    bare = _NO.sub("", value, count=1)
    return (bare, not polarity) if bare != value else (value, polarity)


def fact_matches(passage: Passage, gold: dict[str, Any], fact: ExtractedFact) -> bool:
    if gold["category"] in _RULES:
        gold_value, gold_polarity = _stance(gold["value"], gold["polarity"])
        value, polarity = _stance(fact.value, fact.polarity)
    else:
        gold_value, gold_polarity = gold["value"], gold["polarity"]
        value, polarity = fact.value, fact.polarity
    return (
        same_subject(passage, gold, fact)
        and gold["category"] == fact.category.value
        and gold["predicate"] == fact.predicate
        and gold_polarity == polarity
        and gold["holds"] == fact.holds
        and values_match(gold_value, value)
    )


def _label(fact: dict[str, Any] | ExtractedFact, subject: str) -> str:
    return f"{subject}: {describe_fact(fact)}"


def score_facts(passages: Sequence[Passage], extractor: RuleExtractor | None = None) -> FactScore:
    extractor = extractor or RuleExtractor()
    out = FactScore()
    for p in passages:
        for turn, text in enumerate(p.turns):
            # the passage's earlier turns are the conversation window the write path
            # gives the rules (``ingest/understand.py``): who "she" may point back to
            window = tuple(p.turns[:turn])
            predicted = extractor.extract_one(
                ExtractionInput(text=text, occurred_at=said_at(turn), context=window)
            ).facts
            golds = [g for g in p.facts if g["turn"] == turn]
            out.gold += len(golds)
            out.predicted += len(predicted)
            for f in predicted:
                out.by_relation[f"{f.category.value}/{f.predicate}"]["predicted"] += 1
            if not golds:
                out.nothing_turns += 1
                out.nothing_facts += len(predicted)
                reason = p.reason or f"in a {p.kind} passage"
                out.nothing_by_reason[reason]["turns"] += 1
                out.nothing_by_reason[reason]["facts"] += len(predicted)
            unused = list(predicted)
            for gold in golds:
                rel = out.by_relation[f"{gold['category']}/{gold['predicate']}"]
                rel["gold"] += 1
                hit = next((f for f in unused if fact_matches(p, gold, f)), None)
                if hit is None:
                    out.misses.append(f"{p.id} {text!r}: {_label(gold, gold['subject'])}")
                    continue
                unused.remove(hit)
                out.matched += 1
                rel["matched"] += 1
            out.unlabelled += [f"{p.id} {text!r}: {_label(f, f.subject)}" for f in unused]
    return out


@dataclass
class LinkScore:
    """Pronouns as the rules resolve them, whether or not a fact is read from the turn
    ("She goes by Kate" writes an alias, no fact)."""

    links: int = 0
    right: int = 0
    wrong: int = 0


def score_links(passages: Sequence[Passage], extractor: RuleExtractor | None = None) -> LinkScore:
    extractor = extractor or RuleExtractor()
    out = LinkScore()
    for p in passages:
        for link in p.coref:
            message = ExtractionInput(
                text=p.turns[link["turn"]],
                occurred_at=said_at(link["turn"]),
                context=tuple(p.turns[: link["turn"]]),
            )
            discourse = extractor.discourse([message])
            resolved: list[Link] = []
            resolve = discourse.resolve

            def recording(sentence: str, resolve: Any = resolve, seen: Any = resolved) -> Any:
                said, links = resolve(sentence)
                seen.extend(links)
                return said, links

            discourse.resolve = recording  # type: ignore[method-assign]
            extractor.extract_one(message, discourse)
            names = [
                normalize_name(x.name)
                for x in resolved
                if x.said.lower() == link["mention"].lower()
            ]
            out.links += 1
            if any(n in p.names_of(link["antecedent"]) for n in names):
                out.right += 1
            elif names:
                out.wrong += 1
    return out


# ------------------------------------------------------- entities and the store


@dataclass
class StoreScore:
    entities: int = 0
    entities_found: int = 0
    entities_typed: int = 0
    aliases: int = 0
    aliases_right: int = 0
    links: int = 0
    links_right: int = 0
    links_wrong: int = 0
    renewals: int = 0
    renewals_right: int = 0
    notes: list[str] = field(default_factory=list)
    # why each note was written, counted: all a check half reports of its notes
    reasons: Counter[str] = field(default_factory=Counter)
    # each restatement pair's outcome by passage id: "right" or why not
    renewal_outcomes: dict[str, str] = field(default_factory=dict)

    def note(self, reason: str, text: str) -> None:
        self.reasons[reason] += 1
        self.notes.append(text)


async def score_store(passages: Sequence[Passage], embedder: str = "local") -> StoreScore:
    out = StoreScore()
    wanted = [p for p in passages if p.entities or p.coref or p.restates is not None]
    chosen = HashingEmbedder() if embedder == "hashing" else None  # None: the default
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/knowledge_set.db"
        async with Memory.open(url, settings=Settings(), embedder=chosen) as memory:
            for p in wanted:
                await _passage(memory, p, out)
    return out


async def _passage(memory: Memory, p: Passage, out: StoreScore) -> None:
    events: list[str] = []
    items: list[list[str]] = []
    for turn, text in enumerate(p.turns):
        written = await memory.write(
            text, user_id=p.id, session_id=p.id, role="user", occurred_at=said_at(turn)
        )
        events += written.event_ids
        items.append(written.item_ids)
    facts = await memory.facts(user_id=p.id, include_history=True, limit=500)
    stored = await memory.entities(user_id=p.id)
    # the entities each turn's items are linked to, by name
    names = {e.id: normalize_name(e.name) for e, _ in stored}
    linked = [
        {names[e] for i in ids for e in (await memory.get(i)).entities if e in names}
        for ids in items
    ]
    by_name = {}
    for entity, aliases in stored:
        for name in {normalize_name(entity.name), *(a.alias for a in aliases)}:
            by_name.setdefault(name, []).append((entity, {a.alias for a in aliases}))
    for gold in p.entities:
        out.entities += 1
        names = [normalize_name(n) for n in (gold["name"], *gold["aliases"])]
        found = next((by_name[n][0] for n in names if n in by_name), None)
        if found is None:
            out.note("entity not stored", f"{p.id}: entity {gold['name']!r} not stored")
            continue
        out.entities_found += 1
        if found[0].type.value == gold["type"]:
            out.entities_typed += 1
        else:
            typed = found[0].type.value
            out.note(f"{gold['type']} typed {typed}", f"{p.id}: {gold['name']!r} typed {typed}")
        canonical = by_name.get(normalize_name(gold["name"]), [])
        for alias in gold["aliases"]:
            out.aliases += 1
            norm = normalize_name(alias)
            holders = {e.id for e, _ in by_name.get(norm, [])}
            right = bool(canonical) and holders == {canonical[0][0].id}
            out.aliases_right += right
            if not right:
                out.note(
                    "alias not linked", f"{p.id}: alias {alias!r} of {gold['name']!r} not linked"
                )
    for link in p.coref:
        _link(p, link, events, facts, linked[link["turn"]], out)
    if p.restates is not None:
        _renewal(p, events, facts, out)


def _key_family(key: str) -> str:
    return ":".join(key.split(":")[:3])  # subject:category:predicate


def _renewal(p: Passage, events: list[str], facts: Sequence[Any], out: StoreScore) -> None:
    out.renewals += 1
    first = [f for f in facts if events[0] in f.evidence_event_ids]
    renewed = any(events[1] in f.evidence_event_ids for f in first)
    if renewed == p.restates:
        out.renewals_right += 1
        out.renewal_outcomes[p.id] = "right"
        return
    second = [f for f in facts if events[1] in f.evidence_event_ids]
    if renewed:
        why = "other fact renewed the first"
    elif not first:
        why = "restatement not renewed: the first turn wrote no fact"
    elif not second:
        why = "restatement not renewed: the second turn wrote no fact"
    elif {_key_family(f.key) for f in first} & {_key_family(f.key) for f in second}:
        why = "restatement not renewed: same key family"
    else:
        why = "restatement not renewed: another key family"
    out.renewal_outcomes[p.id] = why
    said = "renewed" if renewed else "not renewed"
    out.note(why, f"{p.id}: {p.turns[0]!r} {said} by {p.turns[1]!r}")


def _link(
    p: Passage,
    link: dict[str, Any],
    events: list[str],
    facts: Sequence[Any],
    linked: set[str],
    out: StoreScore,
) -> None:
    """One pronoun label against what the store holds: the facts written from its turn,
    else (no fact about a third party) the entities its items are linked to."""
    out.links += 1
    turn = link["turn"]
    subjects = {f.subject for f in facts if events[turn] in f.evidence_event_ids}
    target = subject_slug(link["antecedent"])
    others = subjects - {target, SELF_SUBJECT}
    mention = link["mention"]
    if target in subjects:
        out.links_right += 1
        return
    if not others and linked:  # no fact about anyone else: the item's links
        names = p.names_of(link["antecedent"])
        if linked & names:
            out.links_right += 1
            return
        others = {subject_slug(n) for n in linked}
    if others:
        out.links_wrong += 1
        out.note("pronoun linked to another", f"{p.id}: {mention!r} linked to {sorted(others)}")
        return
    names = p.names_of(link["antecedent"])
    if not any(g["turn"] == turn and normalize_name(g["subject"]) in names for g in p.facts):
        why = "pronoun unresolved: the turn has no labelled fact about the antecedent"
    else:
        message = ExtractionInput(
            text=p.turns[turn], occurred_at=said_at(turn), context=tuple(p.turns[:turn])
        )
        read = RuleExtractor().extract_one(message).facts
        if any(not is_self(f.subject) and normalize_name(f.subject) in names for f in read):
            why = "pronoun unresolved: the rules read a fact about the antecedent, none stored"
        else:
            why = "pronoun unresolved: the rules read no fact about the antecedent"
    out.note(why, f"{p.id}: {mention!r} unresolved")


# ---------------------------------------------------------------------- report


def _ratio(part: int, whole: int) -> str:
    return f"{part / whole:.3f} ({part}/{whole})" if whole else "n/a"


def kept_notes(path: Path) -> str:
    """The hand-written sections of a results file (its before/after tables and notes,
    between the summary table and the first half's details), kept when it is rewritten."""
    if not path.exists():
        return ""
    text = path.read_text(encoding="utf-8")
    head = text.split("\n## tune half\n", 1)[0].split("\n## check half\n", 1)[0]
    start = head.find("\n## ")
    return head[start + 1 :].rstrip() + "\n" if start >= 0 else ""


def report(
    results: dict[str, tuple[FactScore, StoreScore, LinkScore]], header: str, notes: str = ""
) -> str:
    lines = [header, ""]
    lines += [
        "| half | fact P | fact R | fact F1 | false facts / 100 nothing turns | entity type "
        "accuracy | alias accuracy | pronoun links right | wrong links | renewal accuracy | "
        "pronouns resolved right (rules) | resolved wrong |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, (f, s, k) in results.items():
        lines.append(
            f"| {name} | {f.precision:.3f} | {f.recall:.3f} | {f.f1:.3f} | "
            f"{f.false_per_100:.1f} ({f.nothing_facts} in {f.nothing_turns}) | "
            f"{_ratio(s.entities_typed, s.entities)} | {_ratio(s.aliases_right, s.aliases)} | "
            f"{_ratio(s.links_right, s.links)} | {_ratio(s.links_wrong, s.links)} | "
            f"{_ratio(s.renewals_right, s.renewals)} | {_ratio(k.right, k.links)} | "
            f"{_ratio(k.wrong, k.links)} |"
        )
    if notes:
        lines += ["", notes.rstrip()]
    for name, (f, s, _) in results.items():
        lines += _half(name, f, s)
    return "\n".join(lines) + "\n"


def _half(name: str, f: FactScore, s: StoreScore) -> list[str]:
    """One half's details: the tune half item by item, the check half in counts only."""
    lines = ["", f"## {name} half", "", "False facts on turns that must produce nothing:", ""]
    for reason, c in sorted(f.nothing_by_reason.items()):
        lines.append(f"- {reason}: {c['facts']} facts in {c['turns']} turns")
    lines += [
        "",
        "| relation | labelled | predicted | matched | P | R |",
        "|---|---|---|---|---|---|",
    ]
    for rel in sorted(f.by_relation):
        c = f.by_relation[rel]
        p = c["matched"] / c["predicted"] if c["predicted"] else float("nan")
        r = c["matched"] / c["gold"] if c["gold"] else float("nan")
        lines.append(
            f"| {rel} | {c['gold']} | {c['predicted']} | {c['matched']} | {p:.2f} | {r:.2f} |"
        )
    items = name == "tune"
    lines += ["", f"Missed labelled facts ({len(f.misses)}){':' if items else '.'}"]
    if items:
        lines += [f"  - {m}" for m in f.misses] or ["  (none)"]
    lines += ["", f"Predicted facts with no label ({len(f.unlabelled)}){':' if items else '.'}"]
    if items:
        lines += [f"  - {m}" for m in f.unlabelled] or ["  (none)"]
    lines += ["", f"Store-level notes ({len(s.notes)}), by reason:", ""]
    lines += [f"- {why}: {n}" for why, n in sorted(s.reasons.items())] or ["- (none)"]
    if items and s.notes:
        lines += ["", "Store-level notes:"]
        lines += [f"  - {m}" for m in s.notes]
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/knowledge_set.md")
    parser.add_argument("--split", choices=SPLITS, action="append")
    parser.add_argument("--embedder", choices=("local", "hashing"), default="local")
    parser.add_argument(
        "--data",
        type=Path,
        default=DATA,
        help="another set of the same form (knowledge_set_round2.jsonl: new passages of "
        "every kind; knowledge_nothing_round10.jsonl: hard turns that must produce nothing)",
    )
    args = parser.parse_args(argv)
    data = args.data.resolve()
    passages = load(data)
    results = {}
    for name in args.split or SPLITS:
        part = [p for p in passages if p.split == name]
        results[name] = (
            score_facts(part),
            asyncio.run(score_store(part, args.embedder)),
            score_links(part),
        )
    counts = Counter((p.split, p.kind) for p in passages)
    header = "\n".join(
        [
            "# Knowledge set: the embedded write path on short chats (no LLM)",
            "",
            "Command: `PYTHONPATH=src python benchmarks/knowledge_set.py"
            + ("" if data == DATA else f" --data {data.relative_to(ROOT)}")
            + ("`" if args.embedder == "local" else f" --embedder {args.embedder}`"),
            f"Set: {len(passages)} passages, "
            + ", ".join(f"{k} {s}: {n}" for (s, k), n in sorted(counts.items())),
        ]
    )
    text = report(results, header, kept_notes(args.out))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text, end="")


if __name__ == "__main__":
    main()
