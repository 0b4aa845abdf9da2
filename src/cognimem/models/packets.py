"""The context packet: what a read returns to the agent."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field, computed_field

from cognimem.models.items import CONSOLIDATION_META, ItemKind, MemoryItem

MARKDOWN_HEADER = "## Memory\n\n"
MEMORIES_TITLE = "### Memories"
NOTHING_RELEVANT = "_No relevant memories._"


def markdown_line(item: PacketItem) -> str:
    """One memory as a prompt line; the token budget is counted on these lines.

    Caller-supplied external ids are shown so an answer can cite them; internal event
    ids are left to the JSON form (they cost ~20 tokens a line and mean nothing to a model).
    """
    when = item.occurred_at.strftime("%Y-%m-%d %H:%M")
    if item.event_start is not None and item.event_end is not None:
        when += f"; tells of {period_text(item.event_start, item.event_end)}"
    who = f"{item.author}: " if item.author else ""
    source = f" ({', '.join(item.external_ids)})" if item.external_ids else ""
    stale = ""
    if item.no_longer_true_since is not None:
        stale = f" — {no_longer_true(item.no_longer_true_since)}"
    return f"- [{when}] {who}{item.text}{source}{stale}"


def no_longer_true(since: datetime) -> str:
    """The note on a memory that states what no longer holds, in the packet and explain."""
    return f"no longer true (since {since:%Y-%m-%d})"


def period_text(start: datetime, end: datetime) -> str:
    """``[start, end)`` as a person writes it: a day (or part of one) ``2023-05-03``, a
    calendar month ``2023-05``, a calendar year ``2023``, else its first and last day
    ``2023-05-01 to 2023-05-07``."""
    if end - start <= timedelta(days=1):
        return f"{start:%Y-%m-%d}"
    first = start == start.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    if first and end == end.replace(day=1, hour=0, minute=0, second=0, microsecond=0):
        months = (end.year - start.year) * 12 + end.month - start.month
        if months == 1:
            return f"{start:%Y-%m}"
        if months == 12 and start.month == 1:
            return f"{start:%Y}"
    return f"{start:%Y-%m-%d} to {end - timedelta(microseconds=1):%Y-%m-%d}"


class Claim(BaseModel):
    """One sentence of a summary or profile and exactly what it states: the events (and
    the items, and their caller-supplied ids) it was written from; ``constraint`` names
    the category and scope tags of the constraint a sentence states verbatim."""

    text: str
    source_event_ids: list[str] = Field(default_factory=list)
    item_ids: list[str] = Field(default_factory=list)
    external_ids: list[str] = Field(default_factory=list)
    constraint: dict[str, Any] | None = None


def claims_of(item: MemoryItem) -> list[Claim]:
    """The claims a consolidated summary or profile keeps in its metadata (none for
    any other item)."""
    made = item.metadata.get(CONSOLIDATION_META)
    if item.kind is not ItemKind.SUMMARY or not isinstance(made, dict):
        return []
    return [
        Claim(
            text=c["text"],
            source_event_ids=list(c.get("event_ids", [])),
            item_ids=list(c.get("item_ids", [])),
            external_ids=list(c.get("external_ids", [])),
            constraint=c.get("constraint"),
        )
        for c in made.get("claims", [])
        if isinstance(c, dict) and "text" in c
    ]


class PacketItem(BaseModel):
    """One retrieved memory with its score and provenance (a summary's or profile's
    per sentence in ``claims``)."""

    id: str
    text: str
    kind: ItemKind
    score: float
    signals: dict[str, float] = Field(default_factory=dict)
    occurred_at: datetime
    # what it tells of, when its words date it ("last night": the day before it was said)
    event_start: datetime | None = None
    event_end: datetime | None = None
    author: str | None = None
    source_event_ids: list[str] = Field(default_factory=list)
    external_ids: list[str] = Field(default_factory=list)
    confidence: float = 1.0
    token_count: int = 0
    # set when the memory is already shown in a section (a mandate, a constraint's
    # evidence ...): it keeps its rank here but is not rendered twice
    shown_in: str | None = None
    # a summary's or profile's sentences, each with the events it states
    claims: list[Claim] = Field(default_factory=list)
    # what it states was superseded or found untrue then (for this read's time)
    no_longer_true_since: datetime | None = None


class FactEntry(BaseModel):
    """A fact or constraint in a packet section, with its provenance."""

    id: str
    key: str
    text: str  # what was said (the evidence sentence)
    category: str
    value: str
    polarity: bool = True
    scope_tags: list[str] = Field(default_factory=list)
    confidence: float  # as stored: when it was last validated
    # the stored confidence after passive decay, at the read's reference time
    # (models/fact_decay.py); below 0.35 the fact needs validation
    effective_confidence: float | None = None
    score: float  # relevance to the query
    signals: dict[str, float] = Field(default_factory=dict)
    valid_from: datetime | None = None
    valid_to: datetime | None = None  # set when it no longer holds (an as-of read's)
    recorded_at: datetime
    source_event_ids: list[str] = Field(default_factory=list)
    item_ids: list[str] = Field(default_factory=list)
    token_count: int = 0


class ConflictEntry(BaseModel):
    """An open contradiction between facts the answer may touch: ask, don't guess."""

    id: str
    key: str
    fact_ids: list[str]
    texts: list[str]  # each contradicting statement, newest first
    strategy: str
    created_at: datetime
    token_count: int = 0


class ProcedureEntry(BaseModel):
    """A learnt procedure whose trigger the query matches: what was done before when
    this was asked (``Memory.procedures``; ``matched``: the trigger words the query
    holds)."""

    id: str
    trigger: str
    action: str  # the action as a prompt phrase
    observed_count: int
    confidence: float
    score: float  # how well the query matches the trigger
    signals: dict[str, float] = Field(default_factory=dict)
    matched: list[str] = Field(default_factory=list)
    source_event_ids: list[str] = Field(default_factory=list)
    token_count: int = 0


class DomainRelated(BaseModel):
    """A row related to a domain fact's row by a foreign key of the mapping: the row's
    ``relation`` names it, or with ``inverse`` it names the row by ``relation``."""

    relation: str
    entity_type: str
    table: str
    key: str
    name: str
    values: dict[str, str] = Field(default_factory=dict)
    inverse: bool = False


class Overruled(BaseModel):
    """A memory fact the domain's current value contradicts: the domain wins here; the
    fact stays stored as a claim (its ``trust_domain`` conflict is in the conflicts API)."""

    fact_id: str
    predicate: str
    memory_value: str
    domain_value: str


class DomainFactEntry(BaseModel):
    """A row of the user's domain database the query touches, read at recall time:
    current values by predicate, related rows, and the table and key as provenance."""

    id: str  # the row's reference, "<entity type>:<key>"
    entity_type: str
    table: str
    key: str
    name: str
    values: dict[str, str] = Field(default_factory=dict)
    related: list[DomainRelated] = Field(default_factory=list)
    entity_id: str | None = None  # the memory entity linked to the row, if any
    overrules: list[Overruled] = Field(default_factory=list)
    token_count: int = 0


class PacketSections(BaseModel):
    """What must shape the answer, ahead of the ranked memories: mandates (tier always),
    active constraints split into "must follow" (value, policy) and "consider" (goal,
    state, causal), the user's facts and preferences that bear on the query, summaries
    and procedures (caller-written tool notes; learnt request → action patterns whose
    trigger the query matches), open conflicts, facts needing validation (their
    confidence decayed since they were last confirmed, ``models/fact_decay.py``), and the
    domain database's current rows for the entities the query names (domain facts)."""

    mandates: list[PacketItem] = Field(default_factory=list)
    must_follow: list[FactEntry] = Field(default_factory=list)
    consider: list[FactEntry] = Field(default_factory=list)
    facts: list[FactEntry] = Field(default_factory=list)
    preferences: list[FactEntry] = Field(default_factory=list)
    summaries: list[PacketItem] = Field(default_factory=list)
    procedures: list[PacketItem] = Field(default_factory=list)
    learned_procedures: list[ProcedureEntry] = Field(default_factory=list)
    conflicts: list[ConflictEntry] = Field(default_factory=list)
    needs_validation: list[FactEntry] = Field(default_factory=list)
    domain_facts: list[DomainFactEntry] = Field(default_factory=list)

    def entries(self) -> list[FactEntry]:
        """Every fact and constraint entry, in rendering order."""
        return [
            *self.must_follow,
            *self.consider,
            *self.facts,
            *self.preferences,
            *self.needs_validation,
        ]

    def is_empty(self) -> bool:
        return not any(getattr(self, name) for name, _ in SECTION_TITLES)

    def bears_on_query(self) -> bool:
        """Whether a section holds something chosen for the query: every section but
        the mandates, which are in every packet whatever was asked."""
        return any(getattr(self, name) for name, _ in SECTION_TITLES if name != "mandates")

    def lines(self) -> list[str]:
        """The markdown of every non-empty section, titled, each followed by a blank."""
        out: list[str] = []
        for name, title in SECTION_TITLES:
            entries = getattr(self, name)
            if entries:
                out += [title, *(section_line(e) for e in entries), ""]
        return out


def fact_line(entry: FactEntry) -> str:
    """One fact or constraint as a prompt line (counted against the token budget)."""
    start, end = entry.valid_from, entry.valid_to
    # a live fact holds now: every fact has a valid_from (when it was said, if it named
    # no time), and dating each line would spend the prompt's tokens on what adds
    # nothing; a fact that ended (an as-of read's) says when it held
    if end is None:
        return f"- {entry.text}"
    held = f" ({start:%Y-%m-%d} to {end:%Y-%m-%d})" if start else f" (until {end:%Y-%m-%d})"
    return f"- {entry.text}{held}"


def conflict_line(entry: ConflictEntry) -> str:
    return "- Unresolved: " + " / ".join(f'"{t}"' for t in entry.texts)


def summary_line(item: PacketItem) -> str:
    """A summary or profile as a prompt line: each sentence followed by the
    caller-supplied ids of what it states, when it has any (so an answer can cite them)."""
    if not any(c.external_ids for c in item.claims):
        return f"- {item.text}"
    text = item.text
    for c in item.claims:
        if c.external_ids and c.text in text:
            cited = f"{c.text} ({', '.join(c.external_ids)})"
            text = text.replace(c.text, cited, 1)
    return f"- {text}"


def procedure_line(entry: ProcedureEntry) -> str:
    times = "once" if entry.observed_count == 1 else f"{entry.observed_count} times"
    return f'- When asked "{entry.trigger}": {entry.action} (done {times})'


def _values(values: dict[str, str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in values.items())


def domain_line(entry: DomainFactEntry) -> str:
    """A domain row as a prompt line: name, provenance (table and key), current values,
    related rows, and what it overrules in memory."""
    line = f"- {entry.name} ({entry.entity_type}, {entry.table} #{entry.key})"
    if entry.values:
        line += f": {_values(entry.values)}"
    for r in entry.related:
        about = f": {_values(r.values)}" if r.values else ""
        other = f"{r.entity_type} {r.name} ({r.table} #{r.key}{about})"
        verb = r.relation.replace("_", " ")
        line += f"; {other} {verb} it" if r.inverse else f"; {verb} {other}"
    for o in entry.overrules:
        line += f" [memory said {o.predicate} {o.memory_value}: superseded by the database]"
    return line


def section_line(
    entry: PacketItem | FactEntry | ConflictEntry | ProcedureEntry | DomainFactEntry,
) -> str:
    if isinstance(entry, ProcedureEntry):
        return procedure_line(entry)
    if isinstance(entry, DomainFactEntry):
        return domain_line(entry)
    if isinstance(entry, PacketItem):
        if entry.kind is ItemKind.EPISODE:
            return markdown_line(entry)
        return summary_line(entry) if entry.claims else f"- {entry.text}"
    if isinstance(entry, ConflictEntry):
        return conflict_line(entry)
    return fact_line(entry)


SECTION_TITLES = (
    ("mandates", "### Always"),
    ("domain_facts", "### Domain facts (current, from the database)"),
    ("must_follow", "### Must follow"),
    ("consider", "### Consider"),
    ("facts", "### Known facts"),
    ("preferences", "### Preferences"),
    ("procedures", "### Procedures"),
    ("learned_procedures", "### Learned procedures (done before for this request)"),
    ("summaries", "### Summaries"),
    ("conflicts", "### Open conflicts (ask before relying on these)"),
    ("needs_validation", "### Needs validation (not confirmed lately: ask before relying)"),
)


class StepReport(BaseModel):
    """How one retrieval step went."""

    name: str
    latency_ms: float
    results: int
    timed_out: bool = False
    error: str | None = None
    group: int = 0  # the plan's parallel group it ran in
    skipped: str | None = None  # why it did not run ("an earlier group found ...", budget)


class Explanation(BaseModel):
    """Why a candidate was returned or dropped (``read(..., explain=True)``)."""

    id: str
    type: str  # "item" | "fact" | "procedure"
    steps: list[str]  # the retrieval steps that produced it
    signals: dict[str, float]  # each signal's value (raw per-method scores prefixed raw_)
    score: float
    outcome: str  # "returned", "section:<name>", or "dropped: <why>"
    # a returned item: why it is there (the section entry it stands behind, its
    # evidence for the query); a learnt procedure: which trigger words the query holds
    reason: str | None = None
    # a summary's or profile's sentences, each with the events it states
    claims: list[Claim] | None = None


class ContextPacket(BaseModel):
    """The memories that matter for a query, cut to a token budget.

    ``items`` is the ranked list of memories (what evidence-recall benchmarks score);
    ``sections`` hold the constraints and facts that must shape the answer, rendered
    first. ``token_count`` is the size of the markdown rendering (cl100k_base), so
    ``to_markdown()`` fits ``max_tokens``. ``nothing_relevant`` says that nothing in
    memory bears on the query: no memory with evidence for it and no section but the
    mandates; the markdown then says "No relevant memories" instead of padding.
    """

    query: str
    items: list[PacketItem]
    sections: PacketSections = Field(default_factory=PacketSections)
    token_count: int
    max_tokens: int
    truncated: bool = False
    reference_time: datetime
    preset: str
    degraded: list[str] = Field(default_factory=list)
    steps: list[StepReport] = Field(default_factory=list)
    meta: dict[str, Any] = Field(default_factory=dict)
    explain: list[Explanation] | None = None
    # with explain: the config the read ranked with (its preset with the settings' and
    # the read's ranking overrides merged over it)
    recall_config: dict[str, Any] | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def nothing_relevant(self) -> bool:
        """True when no memory and no section but the mandates bears on the query."""
        return not self.items and not self.sections.bears_on_query()

    def to_markdown(self) -> str:
        """Render the packet for a prompt: sections first, then the ranked memories;
        "No relevant memories" when nothing bears on the query."""
        shown = [item for item in self.items if item.shown_in is None]
        lines = [MARKDOWN_HEADER.rstrip("\n"), ""]
        lines += self.sections.lines()
        if self.nothing_relevant:
            lines.append(NOTHING_RELEVANT)
        elif shown and not self.sections.is_empty():
            lines.append(MEMORIES_TITLE)
        lines += [markdown_line(item) for item in shown]
        if self.degraded:
            lines += ["", f"_Degraded: {', '.join(self.degraded)}_"]
        return "\n".join(lines) + "\n"
