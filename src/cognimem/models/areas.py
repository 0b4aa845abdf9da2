"""The decision areas by name: what a constraint bears on (money, food, health, …).
The names are data every layer shares (an extraction carries them); their
descriptions and the embedder's closeness to them are ``text/areas.py``'s."""

from __future__ import annotations

from enum import StrEnum


class Area(StrEnum):
    """The decision areas by name (each a scope tag of ``SCOPE_TAGS``)."""

    FINANCE = "finance"
    FOOD = "food"
    HEALTH = "health"
    SCHEDULE = "schedule"
    TRAVEL = "travel"
    FAMILY = "family"
    WORK = "work"
    HOME = "home"
    LEISURE = "leisure"
    EDUCATION = "education"
    SHOPPING = "shopping"
    TECHNOLOGY = "technology"
    VALUES = "values"
