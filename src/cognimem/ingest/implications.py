"""Implication tags at write time: the decision areas (``text/areas.py``) each extracted
constraint bears on, so that a later request in other words can meet it by area.

With the LLM extractor the model answers the areas (and one line of what later requests
the constraint should change) in the extraction call; its scope tags add the areas they
fall under. Without it, three things decide: the areas of the constraint's own scope
tags (the lexicon), the areas whose description the embedder finds closest to the
constraint's text (:data:`WRITE_CLOSENESS`), and — only when the constraint's own words
name no area ("I can't do that anymore, not with my knee") — the areas the turns around
it name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from cognimem.ingest.knowledge import fact_text
from cognimem.models.extraction import ExtractedFact, Extraction
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES
from cognimem.text.areas import Area, AreaCloseness, areas_of_tags, closest_areas
from cognimem.text.scope_tags import scope_tags

__all__ = ["WRITE_CLOSENESS", "constraint_areas", "tag_areas"]

# the two closest areas within 0.1 of the closest, when at least 0.2 close (an area as
# close as the nearest thing its description lists: text/areas.py). On the tune halves
# a cue and its trigger then share an area for 0.677 of true pairs against 0.274 of
# random ones (cue_trigger_long; the whole descriptions within 0.05 from 0.1: 0.546 /
# 0.238), 0.657 / 0.266 (cue_trigger; 0.543 / 0.203), 0.767 / 0.242
# (preference_requests; 0.733 / 0.260); see benchmarks/implication_areas.py
WRITE_CLOSENESS = AreaCloseness(floor=0.2, margin=0.1, top=2)


def _areas(names: Sequence[str]) -> list[Area]:
    return [Area(n) for n in dict.fromkeys(names)]


def constraint_areas(
    tags: Sequence[str],
    vector: np.ndarray | None,
    descriptions: np.ndarray | None,
    around: Sequence[str] = (),
) -> list[Area]:
    """The rule path's areas of a constraint with scope ``tags`` and embedding
    ``vector``, said among the turns ``around`` it."""
    own = areas_of_tags(tags)
    found = [*own, *closest_areas(vector, descriptions, WRITE_CLOSENESS)]
    if not own:
        for text in around:
            found += areas_of_tags(scope_tags(text.replace("-", " ")))
    return _areas(found)


def _fact_areas(
    fact: ExtractedFact,
    vector: np.ndarray | None,
    around: Sequence[str],
    descriptions: np.ndarray | None,
    *,
    by_llm: bool,
) -> list[Area]:
    if by_llm:  # the model decided; the tags it gave add the areas they fall under
        return _areas([*(a.value for a in fact.areas), *areas_of_tags(fact.scope_tags)])
    return constraint_areas(fact.scope_tags, vector, descriptions, around)


def tag_areas(
    extractions: Sequence[Extraction],
    texts: Sequence[str],
    vectors: Mapping[str, np.ndarray],
    descriptions: np.ndarray | None,
    *,
    by_llm: bool,
) -> list[Extraction]:
    """Each extraction with its constraint facts' ``areas`` set. ``texts`` are the
    batch's messages in order (a message's neighbours are the turns around it);
    ``vectors`` hold each fact text's embedding (rule path), ``descriptions`` the
    areas' (``AreaDescriptions``)."""
    out: list[Extraction] = []
    for i, extraction in enumerate(extractions):
        if not any(f.category in CONSTRAINT_CATEGORIES for f in extraction.facts):
            out.append(extraction)
            continue
        around = [texts[j] for j in (i - 1, i + 1) if 0 <= j < len(texts)]
        facts = [
            f.model_copy(
                update={
                    "areas": _fact_areas(
                        f, vectors.get(fact_text(f)), around, descriptions, by_llm=by_llm
                    )
                }
            )
            if f.category in CONSTRAINT_CATEGORIES
            else f
            for f in extraction.facts
        ]
        out.append(extraction.model_copy(update={"facts": facts}))
    return out
