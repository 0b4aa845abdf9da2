"""Stable keys for facts: the same statement always maps to the same key, on every
process and machine (plain string normalisation, never Python's ``hash()``).

A key is ``subject:category:predicate`` (``user:identity:name``), with the value
appended for multi-valued predicates (``user:preference:cuisine:italian``), so "I love
Italian food" and "I love Italian music" never collide and a single-valued fact (name,
current city, diet) has one key whose newer values supersede older ones. Looking a key
up also finds the multi-valued facts under it (``user:preference:cuisine`` finds
``user:preference:cuisine:italian``).

The subject of a fact about the scope's user is always ``user``, whether or not the
message carried the speaker's name (see ``ingest/speakers.py``); anyone else is the
slug of their name (``ana:value:diet``).
"""

from __future__ import annotations

import re
import unicodedata

_NON_WORD = re.compile(r"[^a-z0-9]+")
_SPACES = re.compile(r"\s+")
_ARTICLES = re.compile(r"^(?:the|a|an|my|our)\s+")
MAX_PART_CHARS = 80


def slug(text: str) -> str:
    """Lowercase ASCII words joined by ``_``: ``"Crème Brûlée!"`` → ``"creme_brulee"``."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _NON_WORD.sub("_", folded.lower()).strip("_")[:MAX_PART_CHARS].rstrip("_")


def normalize_name(name: str) -> str:
    """How entity names and aliases are compared: casefolded, spaces collapsed, leading
    articles and possessives dropped (``"The  Acme Corp"`` → ``"acme corp"``)."""
    text = _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip().casefold()
    text = _ARTICLES.sub("", text)
    return text.strip(" .,;:!?'\"")


SELF_SUBJECT = "user"
"""The subject of every fact about the scope's user, whatever name they spoke under."""


def is_self(subject: str) -> bool:
    """Whether a fact's subject is the message's author speaking of themselves."""
    return subject.strip().casefold() in {"user", "i", "me", "myself"}


def subject_slug(subject: str) -> str:
    """The key's subject part for a subject other than the scope's user (who is always
    :data:`SELF_SUBJECT`): their slug."""
    return slug(subject) or "unknown"


def fact_key(subject: str, category: str, predicate: str, value: str, *, multi_valued: bool) -> str:
    """``subject:category:predicate`` plus ``:value`` for multi-valued predicates.

    ``subject`` is already a slug (see :func:`subject_slug`)."""
    parts = [subject, slug(category) or "custom", slug(predicate) or "general"]
    if multi_valued:
        parts.append(slug(value) or "value")
    return ":".join(parts)


def is_under(key: str, prefix: str) -> bool:
    """Whether ``key`` is ``prefix`` itself or a multi-valued key below it."""
    return key == prefix or key.startswith(prefix + ":")


def shortens(short: str, full: str) -> bool:
    """Whether ``short`` is a short form of the first name of ``full``, a name of two
    words or more ("Dom" of "Dominic Price"): its opening, three letters at least and
    fewer than the first name's."""
    word, first = normalize_name(short), normalize_name(full).split()
    return (
        len(first) > 1
        and " " not in word
        and 3 <= len(word) < len(first[0])
        and first[0].startswith(word)
    )
