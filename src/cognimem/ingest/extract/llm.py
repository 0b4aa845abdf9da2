"""The LLM extractor: one structured-output chat call reads a batch of messages.

The prompt is a plain function, :func:`extraction_prompt`, beside its output model,
:class:`ExtractionBatch`, whose JSON schema is sent with every call. The conventions in
the system prompt are the rule extractor's, so both produce the same fact keys.

:class:`LLMExtractor` validates every answer with pydantic. An invalid answer (not JSON,
a schema violation, a missing, repeated or unknown message index) is retried once, with
the model's previous answer and the validation error in the conversation; a second
invalid answer raises :class:`~cognimem.errors.ProviderOutputError`.
:class:`~cognimem.errors.ProviderUnavailable` from the provider propagates unchanged (the
caller falls back to the rule path and reports the write as degraded).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cognimem.errors import UsageError
from cognimem.models.extraction import SCOPE_TAGS, Extraction, ExtractionInput
from cognimem.providers.llm import structured
from cognimem.providers.llm.base import ChatLLM, ChatMessage
from cognimem.text.areas import AREAS

_SCOPE_TAG_SET = frozenset(SCOPE_TAGS)
_MAX_ECHO_CHARS = 20_000

_AREA_LINES = "\n".join(f"  {a.name.value}: {a.description}" for a in AREAS)

SYSTEM_PROMPT = f"""\
You read chat messages and extract what they state, for a long-term memory.
Input: JSON {{"messages": [{{"index", "author", "role", "time", "weekday", "text"}}]}}.
Output: one JSON object {{"messages": [{{"index": i, "extraction": {{...}}}}]}} with exactly \
one entry per input index, no prose. Leave out fields at their defaults; a message with \
nothing to extract gets "extraction": {{}}.

Rules:
- Extract only what the text states; never guess. Greetings, thanks, questions and small \
talk yield nothing.
- role "assistant" is the AI: its suggestions and claims about itself are not facts.
- subject: "user" when the author speaks of themselves; otherwise the name of whom the \
fact is about (or the relation word, e.g. "sister", when unnamed).
- predicate: short snake_case, as listed below. value: the shortest phrase naming it, \
without articles ("Berlin", "Italian", "peanuts").
- multi_valued=true when several values hold at once (likes, allergies, pets, people).
- confidence: 0.9 stated outright, 0.6 implied or hedged.
- Times: resolve relative times ("yesterday", "last June") against that message's own \
time, never today. Write ISO 8601 with offset. event_time: when what the message \
describes happened, if it says. valid_from / valid_to: when a fact started / ended.
- importance: 0-1, how useful the message is to remember; omit when unsure.
- entities: people, places, organizations, pets named in the message, with type.
- Coreference: never use a pronoun or a description ("he", "she", "they", "the \
customer") as a subject, value or entity when the messages say who it is; write that \
name instead.
- relations: edges between two named entities that no fact states, e.g. Rosa \
founded Acme. A fact with an object_entity is already an edge: never repeat it as a \
relation (Rosa's employer Acme is the fact, not also Rosa works_at Acme).

Categories (predicates):
- identity: name, age, pronouns.
- location: city (where the subject lives now; single-valued), hometown. A place they \
used to live: holds=false.
- occupation: job, employer (object_entity = the employer).
- relationship: predicate = the relation word (sister, friend, partner, pet ...), value \
= the name (or kind when unnamed), multi_valued=true, object_entity = the name.
- preference: what they like; multi_valued=true; predicate = the domain, one of \
cuisine, food, drink, music, movie, book, sport, activity, hobby, color, travel, game, \
general. A dislike is a policy (below).
- possession: predicate owns, multi_valued=true.
- event: predicate = the verb (visited, attended, started ...), value = what; with \
valid_from and event_time when known.
- attribute: other lasting traits.
Constraints, which an assistant must respect or consider. Give each scope_tags from: \
{", ".join(SCOPE_TAGS)}.
- policy: hard rules the user sets (predicate = topic, multi_valued=true) and \
allergies (predicate allergy, value = the allergen, multi_valued=true). A dislike, a \
refusal or a choice ("I can't stand X", "I prefer not to X", "I'd rather X") is a \
policy whose value is the whole object, never cut to a head word ("products with \
parabens or sulfates"), polarity=false for what they are against; a condition said \
with it stays in the value ("pack my own pillow when I travel").
- value: principles (predicate = topic, multi_valued=true); an exclusive choice is a \
value with its whole object ("only buy fair-trade coffee"); a diet is predicate diet, \
single-valued (vegetarian, vegan, keto ...).
- goal: what they want to achieve; predicate = topic, multi_valued=true.
- state: a current, temporary condition (injured, busy until Friday); predicate = topic; \
valid_to when its end is stated.
- causal: a stated reason ("I avoid X because Y"); predicate = topic, value = the whole \
reason, multi_valued=true.
Every constraint also gets "areas": the decision areas it bears on (one to three, read \
from its text and the messages around it), from:
{_AREA_LINES}
and "implication": one short line saying what later requests it should change \
("restaurant picks, dinner menus, grocery lists").

Example: "I'm allergic to peanuts; my sister Ana lives in Lyon" gives facts \
[{{"category": "policy", "predicate": "allergy", "value": "peanuts", "multi_valued": true, \
"scope_tags": ["allergy", "food", "health"], "areas": ["food", "health"], "implication": \
"meals, restaurants, recipes and food gifts", "confidence": 0.9}}, {{"category": \
"relationship", "predicate": "sister", "value": "Ana", "multi_valued": true, \
"object_entity": "Ana", "object_type": "person", "confidence": 0.9}}, {{"subject": "Ana", \
"category": "location", "predicate": "city", "value": "Lyon", "object_entity": "Lyon", \
"object_type": "place", "confidence": 0.9}}].
"""


class MessageExtraction(BaseModel):
    """The extraction for the input message at ``index``."""

    model_config = ConfigDict(extra="forbid")

    index: int = Field(ge=0)
    extraction: Extraction


class ExtractionBatch(BaseModel):
    """The LLM's answer: one entry per input message, by index."""

    model_config = ConfigDict(extra="forbid")

    messages: list[MessageExtraction]


EXTRACTION_SCHEMA: dict[str, Any] = ExtractionBatch.model_json_schema()
"""The JSON schema sent as the structured-output format."""


def extraction_prompt(messages: list[ExtractionInput]) -> list[ChatMessage]:
    """The chat messages asking for :class:`ExtractionBatch` over ``messages``.

    The user turn is a JSON document listing each message with its index, author, role
    and ISO time, so relative times resolve against each message's own time.
    """
    batch = {
        "messages": [
            {
                "index": index,
                "author": message.author,
                "role": message.role,
                "time": _as_utc(message.occurred_at).isoformat(),
                "weekday": message.occurred_at.strftime("%A"),
                "text": message.text,
            }
            for index, message in enumerate(messages)
        ]
    }
    return [
        ChatMessage(role="system", content=SYSTEM_PROMPT),
        ChatMessage(role="user", content=json.dumps(batch, ensure_ascii=False)),
    ]


def correction_prompt(error: str, count: int) -> str:
    """The user turn sent after an invalid answer."""
    return (
        f"Your answer was invalid: {error}\n"
        f"Answer again with the complete JSON object for all {count} message(s), one entry "
        f"for each index 0 to {count - 1}, following the schema, and nothing else."
    )


class LLMExtractor:
    """Extracts with a :class:`~cognimem.providers.llm.base.ChatLLM`.

    One ``complete`` call reads up to ``max_batch`` messages; a bigger batch is split
    into consecutive calls of ``max_batch`` messages, made one after the other. Each call
    may be retried once when its answer is invalid (see the module docstring).
    """

    name = "llm"

    def __init__(self, llm: ChatLLM, *, max_batch: int = 20) -> None:
        if max_batch < 1:
            raise UsageError(f"LLMExtractor max_batch must be at least 1, got {max_batch}")
        self.llm = llm
        self.max_batch = max_batch

    async def extract(self, messages: list[ExtractionInput]) -> list[Extraction]:
        """One :class:`Extraction` per message, in order."""
        results: list[Extraction] = []
        for start in range(0, len(messages), self.max_batch):
            results += await self._extract_batch(messages[start : start + self.max_batch])
        return results

    async def _extract_batch(self, batch: list[ExtractionInput]) -> list[Extraction]:
        return await structured.ask(
            self.llm,
            extraction_prompt(batch),
            lambda answer: _parse_answer(answer, len(batch)),
            lambda error: correction_prompt(error, len(batch)),
            json_schema=EXTRACTION_SCHEMA,
            schema_name="extraction_batch",
            echo_chars=_MAX_ECHO_CHARS,
            what="extraction answer",
            details={"batch_size": len(batch)},
        )


def _parse_answer(answer: str, count: int) -> list[Extraction]:
    batch = structured.validated(answer, ExtractionBatch)
    by_index: dict[int, Extraction] = {}
    repeated: set[int] = set()
    for entry in batch.messages:
        if entry.index in by_index:
            repeated.add(entry.index)
        by_index[entry.index] = entry.extraction
    expected = set(range(count))
    missing = sorted(expected - by_index.keys())
    unknown = sorted(by_index.keys() - expected)
    if missing or unknown or repeated:
        problems = [
            f"{label} {values}"
            for label, values in (
                ("missing indexes", missing),
                ("unknown indexes", unknown),
                ("repeated indexes", sorted(repeated)),
            )
            if values
        ]
        raise structured.InvalidAnswer(
            f"expected exactly one entry for each index 0 to {count - 1}; " + "; ".join(problems)
        )
    return [_normalized(by_index[index]) for index in range(count)]


def _as_utc(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _maybe_utc(value: datetime | None) -> datetime | None:
    return None if value is None else _as_utc(value)


def _scope_tags(tags: list[str]) -> list[str]:
    out: list[str] = []
    for tag in tags:
        clean = tag.strip().lower()
        if clean in _SCOPE_TAG_SET and clean not in out:
            out.append(clean)
    return out


def _normalized(extraction: Extraction) -> Extraction:
    """Naive datetimes taken as UTC; scope tags lowercased, deduplicated and limited to
    :data:`SCOPE_TAGS`."""
    facts = [
        fact.model_copy(
            update={
                "valid_from": _maybe_utc(fact.valid_from),
                "valid_to": _maybe_utc(fact.valid_to),
                "scope_tags": _scope_tags(fact.scope_tags),
            }
        )
        for fact in extraction.facts
    ]
    return extraction.model_copy(
        update={"facts": facts, "event_time": _maybe_utc(extraction.event_time)}
    )


__all__ = [
    "EXTRACTION_SCHEMA",
    "SCOPE_TAGS",
    "SYSTEM_PROMPT",
    "ExtractionBatch",
    "LLMExtractor",
    "MessageExtraction",
    "correction_prompt",
    "extraction_prompt",
]
