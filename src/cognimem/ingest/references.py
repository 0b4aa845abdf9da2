"""The rule extractor's reading of a batch, with every reference it resolved.

The rules (``ingest/extract/``) keep a resolved pronoun or role word ("She" -> "Sarah
Jones") on the facts read from its sentence; a sentence they read no fact from ("Her
clinic is in Brooklyn", "We call her Lizzie") keeps it nowhere. :class:`LinkingRules`
reads as :class:`~cognimem.ingest.extract.rules.RuleExtractor` does, word for word,
and returns on each message's :class:`~cognimem.models.extraction.Extraction` every
link made while that message was read (``coreference``), so the write links the
message's items to the person (``ingest/knowledge.py``). The window's messages, read
first to learn who was named, add none: their links are their own writes'.
"""

from __future__ import annotations

from cognimem.ingest.extract.coref import Discourse
from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import Extraction, ExtractionInput, Link

__all__ = ["LinkingRules"]


class _Heard(Discourse):
    """A conversation's discourse that also keeps the links each sentence's
    :meth:`resolve` made, in order."""

    def __init__(self, window: Discourse) -> None:
        # the same conversation: the people (and topics) the window named, taken over
        # as they are (``window`` is not used again)
        vars(self).update(vars(window))
        self.heard: list[Link] = []

    def resolve(self, sentence: str) -> tuple[str, list[Link]]:
        said, links = super().resolve(sentence)
        self.heard += links
        return said, links


class LinkingRules(RuleExtractor):
    """The rule extractor, with each message's resolved references on its extraction."""

    def discourse(self, messages: list[ExtractionInput]) -> Discourse:
        return _Heard(super().discourse(messages))

    def extract_one(
        self, message: ExtractionInput, discourse: Discourse | None = None
    ) -> Extraction:
        heard = self.discourse([message]) if discourse is None else discourse
        start = len(heard.heard) if isinstance(heard, _Heard) else 0
        read = super().extract_one(message, heard)
        if not isinstance(heard, _Heard) or len(heard.heard) == start:
            return read
        return read.model_copy(update={"coreference": heard.heard[start:]})
