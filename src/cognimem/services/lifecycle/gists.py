"""A consolidation group's gist: a theme's clauses, else the LLM's when one is
configured, else extractive (``lifecycle.consolidate``). An LLM that fails is never
passed over silently: the gist is written extractively and ``degraded`` names the group
and why. Used by a consolidation pass and by the profiles-only pass an alias edit runs
(``services/lifecycle/profiles.py``)."""

from __future__ import annotations

import logging

import numpy as np

from cognimem.errors import ProviderError
from cognimem.lifecycle import consolidate as rules
from cognimem.lifecycle import themes
from cognimem.lifecycle.consolidate import ConsolidationPolicy, ConstraintTag, Gist, Group
from cognimem.lifecycle.gist_llm import llm_gist
from cognimem.providers.llm import ChatLLM

log = logging.getLogger(__name__)


async def gist_of(
    llm: ChatLLM | None,
    group: Group,
    vectors: dict[str, np.ndarray],
    constraints: dict[str, ConstraintTag],
    policy: ConsolidationPolicy,
    degraded: list[str],
) -> Gist:
    """``group``'s gist; a failed LLM gist is appended to ``degraded``."""
    if group.kind is rules.GroupKind.THEME:
        # a clause of each turn, verbatim: short enough to rank among the turns
        return themes.theme_gist(group, policy)
    if llm is not None:
        try:
            return await llm_gist(llm, group, constraints, policy, vectors)
        except ProviderError as exc:
            # visible: the result names the group and why; the gist is extractive
            log.warning("consolidation: LLM gist of %s failed: %s", group.key, exc.message)
            degraded.append(f"{group.key}: {exc.message}")
    return rules.extractive_gist(group, vectors, constraints, policy)
