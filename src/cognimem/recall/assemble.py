"""Assemble the context packet: sections first, then the ranked memories, cut to the
token budget (pure).

The budget counts the markdown rendering. Each section has its own share of
``max_tokens`` (``SectionConfig``): mandates may use the whole packet (tier always);
constraints are reserved next, and the best relevant constraint goes in whenever it fits
at all (on a decision, unless the standing profile ranks it below what it carries: then
after the profile's entries, while the sections have a place); the domain database's
rows, facts, preferences, procedures (the learnt ones the query matched first, then the
hints), summaries and conflicts follow, each inside its share; what the sections leave
is the ranked memories' room.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from cognimem.models import MemoryItem, PacketItem
from cognimem.models.fact_decay import effective_confidence, is_aging
from cognimem.models.knowledge import BINDING_CATEGORIES, FactCategory
from cognimem.models.packets import (
    MARKDOWN_HEADER,
    MEMORIES_TITLE,
    SECTION_TITLES,
    ConflictEntry,
    DomainFactEntry,
    FactEntry,
    PacketSections,
    ProcedureEntry,
    claims_of,
    markdown_line,
    section_line,
)
from cognimem.recall.constraints import Scored, SectionConfig
from cognimem.recall.profile import ProfileChoice, ProfileConfig, ProfileEntry, Standing
from cognimem.recall.rounding import round_places

Counter = Callable[[str], int]
# a ranked row's signals, or what makes them: only the rows that become packet items
# need theirs (a read keeps ~28 ranked rows and packs ~9)
Signals = dict[str, float] | Callable[[], dict[str, float]]
SectionEntry = PacketItem | FactEntry | ConflictEntry | ProcedureEntry | DomainFactEntry
_TITLES = dict(SECTION_TITLES)


def entry(scored: Scored, now: datetime) -> FactEntry:
    """The section entry of a picked fact, its effective confidence taken at ``now``
    (the read's reference time)."""
    f = scored.fact
    return FactEntry(
        id=f.id,
        key=f.key,
        text=f.text,
        category=f.category.value,
        value=f.value,
        polarity=f.polarity,
        scope_tags=f.scope_tags,
        confidence=f.confidence,
        effective_confidence=round_places(effective_confidence(f, now), 4),
        score=scored.score,
        signals=scored.signals,
        valid_from=f.valid_from,
        valid_to=f.valid_to,
        recorded_at=f.recorded_at,
        source_event_ids=f.evidence_event_ids,
        item_ids=f.evidence_item_ids,
    )


def packet_item(item: MemoryItem, score: float, signals: dict[str, float]) -> PacketItem:
    return PacketItem(
        id=item.id,
        text=item.text,
        kind=item.kind,
        score=round_places(score, 6),
        signals={k: round_places(v, 6) for k, v in signals.items()},
        occurred_at=item.occurred_at,
        event_start=item.event_start,
        event_end=item.event_end,
        author=item.author,
        source_event_ids=item.source_event_ids,
        external_ids=item.external_ids,
        confidence=item.confidence,
        token_count=item.token_count,
        claims=claims_of(item),
    )


@dataclass
class SectionInputs:
    """The candidates for each section, best first."""

    mandates: list[PacketItem] = field(default_factory=list)
    constraints: list[Scored] = field(default_factory=list)
    facts: list[Scored] = field(default_factory=list)  # not constraints
    procedures: list[PacketItem] = field(default_factory=list)
    learned_procedures: list[ProcedureEntry] = field(default_factory=list)
    summaries: list[PacketItem] = field(default_factory=list)
    conflicts: list[ConflictEntry] = field(default_factory=list)
    domain_facts: list[DomainFactEntry] = field(default_factory=list)
    # the standing profile: the entries that bear on the request (recall/profile.py)
    profile: ProfileChoice = field(default_factory=ProfileChoice)


def standing_entry(
    s: Standing, score: float, signals: dict[str, float], now: datetime
) -> FactEntry:
    """A profile entry as a section entry: the stance as last said, with the provenance
    of every statement merged into it."""
    shown = entry(Scored(s.fact, score, signals), now)
    shown.effective_confidence = round_places(s.confidence_at(now), 4)
    shown.source_event_ids = s.event_ids()
    shown.item_ids = s.item_ids()
    return shown


def needs_validation(scored: Scored, now: datetime) -> bool:
    """A fact or constraint that is aging at the read's reference time (its effective
    confidence decayed below ``models/fact_decay.AGING_BELOW``). A binding constraint
    ("must follow") never is: what the user said to respect is shown as a rule until
    they take it back."""
    f = scored.fact
    return f.category not in BINDING_CATEGORIES and is_aging(f, now)


class _Packer:
    def __init__(self, count_tokens: Counter, room: int) -> None:
        self.count = count_tokens
        self.room = room  # the whole packet's room below the header
        self.used = 0
        self.sections = PacketSections()
        self.dropped: dict[str, str] = {}
        self.lines: set[str] = set()  # rendered so far: two facts from one sentence show once

    def add(self, name: str, entry: SectionEntry, budget: int) -> bool:
        """Put ``entry`` in section ``name`` if it fits both the section's ``budget``
        (tokens this section may still take) and the packet."""
        target: list[SectionEntry] = getattr(self.sections, name)
        line = section_line(entry)
        if line in self.lines:
            self.dropped[entry.id] = "dropped: the same line is already in the packet"
            return False
        cost = self.count(line + "\n")
        if not target:
            cost += self.count(_TITLES[name] + "\n\n")
        if cost > budget or self.used + cost > self.room:
            self.dropped[entry.id] = f"dropped: over the {name} budget"
            return False
        entry.token_count = cost
        target.append(entry)
        self.lines.add(line)
        self.used += cost
        return True

    def fill(
        self,
        name: str,
        entries: Sequence[SectionEntry],
        budget: int,
    ) -> int:
        spent = 0
        for e in entries:
            before = self.used
            if self.add(name, e, budget - spent):
                spent += self.used - before
        return spent


_CONSTRAINT_SECTIONS = ("must_follow", "consider", "needs_validation")
PROFILE_HOLDS = "dropped: the standing profile ranks a decision's constraints"


def _fill_profile(
    packer: _Packer,
    entries: Sequence[ProfileEntry],
    budget: int,
    config: ProfileConfig,
    now: datetime,
) -> int:
    """The profile's entries in the constraint sections, inside the profile's own cap,
    until the sections hold ``max_entries`` entries — and one more when its score ties
    with the last entry's that went in (within ``ProfileConfig.tie``): the cap does not
    choose between two entries the ranking cannot tell apart. An entry a section already
    shows is not shown twice."""
    shown = {e.id for name in _CONSTRAINT_SECTIONS for e in getattr(packer.sections, name)}
    spent = 0
    last: float | None = None  # the score of the last entry that went in
    for p in entries:
        s = p.standing
        if s.fact.id in shown:
            continue
        tied = (
            len(shown) == config.max_entries
            and config.tie is not None
            and last is not None
            and last - p.score <= config.tie
        )
        if len(shown) >= config.max_entries and not tied:
            packer.dropped[s.fact.id] = (
                f"dropped: the constraint sections hold {config.max_entries} entries"
            )
            continue
        name = "must_follow" if s.fact.category in BINDING_CATEGORIES else "consider"
        before = packer.used
        if packer.add(name, standing_entry(s, p.score, p.signals, now), budget - spent):
            shown.add(s.fact.id)
            last = p.score
        spent += packer.used - before
    return spent


def _as_standing(
    scored: Scored, by_fact: dict[str, Standing], shown: set[str], dropped: dict[str, str]
) -> Standing | bool | None:
    """A picked constraint's profile entry; ``False`` when its entry is already shown
    (the pick is dropped, and why); ``None`` when it is in no entry."""
    fact_id = scored.fact.id
    s = by_fact.get(fact_id)
    if s is None:
        return None
    if fact_id != s.fact.id:
        newer = any(f.id == fact_id for f in s.supersedes)
        what = "the newer stance that supersedes it" if newer else "its newest statement"
        dropped[fact_id] = f"dropped: shown as {s.fact.id}, {what} (standing profile)"
    if s.fact.id in shown:
        return False
    shown.add(s.fact.id)
    return s


def assemble_sections(
    inputs: SectionInputs,
    max_tokens: int,
    config: SectionConfig,
    count_tokens: Counter,
    now: datetime,
) -> tuple[PacketSections, int, dict[str, str]]:
    """Fill the sections in priority order. Returns them, the tokens they take and why
    each candidate that did not go in was dropped."""
    room = max_tokens - count_tokens(MARKDOWN_HEADER)
    packer = _Packer(count_tokens, room)
    packer.fill("mandates", inputs.mandates, room)  # tier always: the whole packet
    cap = int(max_tokens * config.share_of_budget)  # every other section together
    constraint_budget = min(int(max_tokens * config.constraint_share), cap)
    spent, deferred = _fill_constraints(packer, inputs, room, constraint_budget, now)
    profile_budget = min(config.profile.max_tokens, cap - spent)
    profiled = _fill_profile(packer, inputs.profile.entries, profile_budget, config.profile, now)
    # a deferred pick takes a place of the profile's: inside what its cap has left
    left = profile_budget - profiled
    spent += profiled + _fill_deferred(packer, deferred, room, left, config.profile, now)
    # the domain's current rows: authoritative, ahead of what memory says
    spent += packer.fill(
        "domain_facts", inputs.domain_facts, min(int(max_tokens * config.domain_share), cap - spent)
    )
    fact_budget = min(int(max_tokens * config.fact_share), cap - spent)
    spent += _fill_facts(packer, inputs.facts, fact_budget, now)
    # learnt procedures the query matched, then the hints, share the procedures' budget
    procedure_budget = min(int(max_tokens * config.procedure_share), cap - spent)
    learned = packer.fill("learned_procedures", inputs.learned_procedures, procedure_budget)
    spent += learned
    spent += packer.fill("procedures", inputs.procedures, procedure_budget - learned)
    for name, entries, share in (
        ("summaries", inputs.summaries, config.summary_share),
        ("conflicts", inputs.conflicts, config.conflict_share),
    ):
        spent += packer.fill(name, entries, min(int(max_tokens * share), cap - spent))
    return packer.sections, packer.used, packer.dropped


def _fill_constraints(
    packer: _Packer, inputs: SectionInputs, room: int, budget: int, now: datetime
) -> tuple[int, tuple[Scored, Standing] | None]:
    """The constraints into Must follow, Consider or Needs validation within ``budget``
    (the first whenever it fits ``room``, the whole packet); the tokens they took, and
    the step's best pick when the profile ranks it below what it carries (deferred:
    it goes in after the profile's entries, ``_fill_deferred``)."""
    spent = 0
    standing: set[str] = set()  # the profile entries shown, by their newest statement
    # on a decision the profile ranks the user's constraints (recall/profile.py): the
    # step's best pick goes first, the profile's entries after it -- unless the
    # profile, which ranks every live constraint against the request, carries it not
    profiled = bool(inputs.profile.entries)
    carried = {e.standing.fact.id for e in inputs.profile.entries}
    deferred: tuple[Scored, Standing] | None = None
    for i, scored in enumerate(inputs.constraints):
        if profiled and i > 0:
            # a paraphrase or superseded stance says what shows it instead
            _as_standing(scored, inputs.profile.by_fact, set(), packer.dropped)
            packer.dropped.setdefault(scored.fact.id, PROFILE_HOLDS)
            continue
        s = _as_standing(scored, inputs.profile.by_fact, standing, packer.dropped)
        if s is False or s is True:
            continue
        if profiled and isinstance(s, Standing) and _ranked_out(s, scored, carried, now):
            deferred = (scored, s)
            continue
        # the best relevant constraint goes in whenever it fits the packet at all
        spent += _place_pick(packer, scored, s, room if i == 0 else budget - spent, now)
    return spent, deferred


def _ranked_out(s: Standing, scored: Scored, carried: set[str], now: datetime) -> bool:
    """Whether the profile ranked a live pick's entry out: not among those it carries,
    and not aging (an aging pick is not in the profile's ranking at all, and goes in
    first as before, to Needs validation)."""
    as_entry = Scored(s.fact, scored.score, scored.signals)
    return s.fact.id not in carried and not needs_validation(as_entry, now)


def _place_pick(
    packer: _Packer, scored: Scored, s: Standing | None, budget: int, now: datetime
) -> int:
    """A constraint the step picked into its section within ``budget``, as its profile
    entry when it has one (paraphrases once, a superseded stance as the newer); the
    tokens it took."""
    shown = entry(scored, now)
    if s is not None:
        scored = Scored(s.fact, scored.score, scored.signals)
        shown = standing_entry(s, scored.score, scored.signals, now)
    if needs_validation(scored, now):
        name = "needs_validation"
    elif scored.fact.category in BINDING_CATEGORIES:
        name = "must_follow"
    else:
        name = "consider"
    before = packer.used
    packer.add(name, shown, budget)
    return packer.used - before


DEFERRED_OUT = "dropped: the standing profile carries {n} constraints it ranks above it"


def _fill_deferred(
    packer: _Packer,
    deferred: tuple[Scored, Standing] | None,
    room: int,
    budget: int,
    config: ProfileConfig,
    now: datetime,
) -> int:
    """The step's best pick that the profile does not carry, after the profile's
    entries: while the sections hold fewer than ``max_entries``, within ``budget``
    (what the profile's own cap has left; ``room``, the whole packet, when the
    sections are still empty)."""
    if deferred is None:
        return 0
    scored, s = deferred
    shown = sum(len(getattr(packer.sections, name)) for name in _CONSTRAINT_SECTIONS)
    if shown >= config.max_entries:
        packer.dropped[scored.fact.id] = DEFERRED_OUT.format(n=shown)
        return 0
    return _place_pick(packer, scored, s, room if not shown else budget, now)


def _fill_facts(packer: _Packer, facts: Sequence[Scored], budget: int, now: datetime) -> int:
    """The facts into Facts, Preferences or Needs validation within ``budget``; the
    tokens they took."""
    spent = 0
    for scored in facts:
        if needs_validation(scored, now):
            name = "needs_validation"
        elif scored.fact.category is FactCategory.PREFERENCE:
            name = "preferences"
        else:
            name = "facts"
        before = packer.used
        packer.add(name, entry(scored, now), budget - spent)
        spent += packer.used - before
    return spent


def assemble(
    ranked: Sequence[tuple[MemoryItem, float, Signals]],
    limit: int,
    max_tokens: int,
    count_tokens: Counter,
    reserved: int = 0,
    shown: frozenset[str] = frozenset(),
    titled: bool = False,
    stale: Mapping[str, datetime] | None = None,
) -> tuple[list[PacketItem], int, bool, dict[str, str]]:
    """Take up to ``limit`` items in rank order whose rendered lines fit ``max_tokens``.

    The budget counts the markdown rendering (header plus one line per item, plus
    ``reserved`` tokens the sections already took; with ``titled`` the memories get a
    title below the sections). An item already ``shown`` in a section keeps its rank
    but costs nothing (it is not rendered twice). An item that
    does not fit is left out and smaller ones below it may still fit. Returns the packet
    items, the tokens used, whether anything was cut for the budget, and why each
    candidate left out was dropped. ``stale``: since when what an item states no longer
    holds, by id (its line says so). Each row's signals are made (when given as a
    function) only for the rows that become packet items.
    """
    chosen: list[PacketItem] = []
    used = count_tokens(MARKDOWN_HEADER) + reserved
    truncated = False
    dropped: dict[str, str] = {}
    for item, score, signals in ranked:
        if len(chosen) >= limit:
            dropped[item.id] = "dropped: below the limit"
            continue
        candidate = packet_item(item, score, signals() if callable(signals) else signals)
        if stale and item.id in stale:
            candidate.no_longer_true_since = stale[item.id]
        if item.id in shown:
            candidate.shown_in = "sections"
            chosen.append(candidate)
            continue
        cost = count_tokens(markdown_line(candidate) + "\n")
        if titled and not any(c.shown_in is None for c in chosen):
            cost += count_tokens(MEMORIES_TITLE + "\n")
        if used + cost > max_tokens:
            truncated = True
            dropped[item.id] = "dropped: over the token budget"
            continue
        used += cost
        chosen.append(candidate)
    return chosen, used, truncated, dropped
