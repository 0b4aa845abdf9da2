"""Reading facts out of messages: the shared output model, the rule extractor and the
time expressions both extractors resolve.

``RuleExtractor`` needs no model and runs on every write; the LLM extractor
(``cognimem.ingest.extract.llm``) returns the same :class:`Extraction`.
"""

from cognimem.ingest.extract.lexicon import SCOPE_TAGS, scope_tags
from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.ingest.extract.schema import (
    ExtractedEntity,
    ExtractedFact,
    ExtractedRelation,
    Extraction,
    ExtractionInput,
    Extractor,
)
from cognimem.ingest.extract.temporal import TimeMention, find_times

__all__ = [
    "SCOPE_TAGS",
    "ExtractedEntity",
    "ExtractedFact",
    "ExtractedRelation",
    "Extraction",
    "ExtractionInput",
    "Extractor",
    "RuleExtractor",
    "TimeMention",
    "find_times",
    "scope_tags",
]
