"""Where a choice's object ends and which way a habit points, read for
:mod:`.detect_choices`:

- "to" inside a relative clause is the clause's, not the option a choice is preferred
  to: "a sitter who comes to the house", "a seat that is close to the front" keep their
  ends ("I prefer tea to coffee" is still cut before "to coffee");
- a habit of switching something off is a stance against it: "When I'm on deadline I
  turn off all notifications" is against notifications, as "I avoid X" is.

Nothing here names a topic: the markers are relative pronouns, "to" and the verbs of
switching off.
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import icase

__all__ = ["relative_to", "switched_off"]

# a relative clause open at the end of what precedes "to"
_RELATIVE = icase(r"\b(?:who|that|which|where)\s+(?:\w+\s+){0,3}?\w+$")
# "turn off X", "switch off X", "mute X", "disable X", "block X", "silence X"
_OFF = icase(
    r"^(?:turn|switch|shut)\s+off\s+(?P<rest>.+)$|^(?:turn|switch|shut)\s+(?P<rest2>.+?)\s+off"
    r"\b(?P<tail>.*)$|^(?:mute|disable|block|silence)\s+(?P<rest3>.+)$"
)


def relative_to(head: str, joined: str) -> bool:
    """Whether ``joined`` (what follows ``head`` from the word that may bring in an
    alternative) opens with "to" inside a relative clause of ``head``."""
    return joined.lstrip().lower().startswith("to ") and _RELATIVE.search(head) is not None


def switched_off(said: str) -> tuple[str, bool]:
    """A habit's object and polarity from its verb on (``said``): what is switched off,
    against it ("turn off X" -> X, false); any other habit, whole and for it."""
    m = _OFF.match(said.strip())
    if m is None:
        return said.strip(), True
    return m["rest"] or m["rest3"] or f"{m['rest2']}{m['tail']}", False
