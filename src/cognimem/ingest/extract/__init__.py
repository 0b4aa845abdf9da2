"""Reading facts out of messages: the shared output model and the rule extractor (the
time expressions both extractors resolve are in :mod:`cognimem.text.temporal`).

``RuleExtractor`` needs no model and runs on every write; the LLM extractor
(``cognimem.ingest.extract.llm``) returns the same :class:`Extraction`.
"""

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import (
    SCOPE_TAGS,
    ExtractedEntity,
    ExtractedFact,
    ExtractedRelation,
    Extraction,
    ExtractionInput,
    Extractor,
)

__all__ = [
    "SCOPE_TAGS",
    "ExtractedEntity",
    "ExtractedFact",
    "ExtractedRelation",
    "Extraction",
    "ExtractionInput",
    "Extractor",
    "RuleExtractor",
]
