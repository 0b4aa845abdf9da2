"""The rule extractor: facts from chat messages with patterns only, no LLM.

How a message is read: :mod:`.message_reader` reads its sentences in order, with the
conversation so far (:mod:`.coref`); :mod:`.sentence_reader` decides whether a sentence
states anything and runs the detectors over its clauses, most binding first;
:mod:`.mentions` notes the names worth an entity even when no fact is read. What the
facts look like (the subject, value, predicate and polarity conventions the fact keys
rely on) is documented in ``docs/extraction.md``.

Where each part lives: :mod:`.clauses` splits a message into sentences and clauses and
prepares them, :mod:`.phrases` trims values and checks names, :mod:`.collector` turns
what a detector reads into facts. The detectors are in :mod:`.detect_constraints`
(allergy, diet, policy, goal, value, state, causal), :mod:`.detect_choices` and
:mod:`.detect_stances` (stances), :mod:`.detect_identity` (name, age, pronouns,
languages), :mod:`.detect_location`, :mod:`.detect_occupation`,
:mod:`.detect_relationships`, :mod:`.detect_others` (what few words say of others),
:mod:`.detect_health`, :mod:`.detect_events` and :mod:`.detect_preferences`
(possession, preference); their patterns are built from :mod:`.patterns` and the word
lists of :mod:`.vocabulary` and :mod:`.lexicon`. This module is the entry point.
"""

from __future__ import annotations

from cognimem.ingest.extract.collector import category_scores
from cognimem.ingest.extract.coref import Discourse, refers_back
from cognimem.ingest.extract.message_reader import MessageReader
from cognimem.models.clock import to_utc
from cognimem.models.extraction import Extraction, ExtractionInput

__all__ = ["RuleExtractor"]


class RuleExtractor:
    """Reads facts, entities and times from chat messages with patterns only.

    Deterministic and cheap (~0.7 ms of CPU a chat turn:
    ``benchmarks/results/extraction_cpu.md``): it runs on every write, and as the
    fallback when an LLM extractor fails. Messages from the assistant, the system or
    tools yield nothing: their claims are not facts about the user.
    """

    name = "rules"

    def extract_one(
        self, message: ExtractionInput, discourse: Discourse | None = None
    ) -> Extraction:
        """Everything ``message`` states, with times resolved against its
        ``occurred_at``; "she" and "my sister" are who ``discourse`` (the conversation
        so far, this message's ``context`` when none is given) says they are. Every
        reference resolved while reading it is on the extraction's ``coreference``, a
        fact read from its sentence or not (the window's own links are not)."""
        if message.role not in {"user", "human"} or not message.text.strip():
            return Extraction()
        if discourse is None:
            discourse = self.discourse([message])
        reader = MessageReader(to_utc(message.occurred_at))
        start = len(discourse.heard)
        reader.read(message.text, discourse)
        facts = reader.facts
        return Extraction(
            entities=list(reader.entities.values()),
            facts=facts,
            importance=max((category_scores(f.category).importance for f in facts), default=None),
            event_time=reader.fact_time or reader.first_time,
            coreference=discourse.heard[start:],
        )

    def discourse(self, messages: list[ExtractionInput]) -> Discourse:
        """Who the conversation named before ``messages``: the first one's ``context``
        read, only when a message refers back to someone (most cost nothing)."""
        first = messages[0]
        discourse = Discourse(tuple(m.author for m in messages if m.author))
        if first.context and any(refers_back(m.text, first.context) for m in messages):
            for text in first.context:
                MessageReader(to_utc(first.occurred_at)).read(text, discourse)
        return discourse

    async def extract(self, messages: list[ExtractionInput]) -> list[Extraction]:
        """One extraction per message, in order; a pronoun may point back to a person
        named in an earlier message of the batch or of its first message's context."""
        if not messages:
            return []
        discourse = self.discourse(messages)
        return [self.extract_one(m, discourse) for m in messages]
