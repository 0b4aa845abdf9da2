"""Words about the conversation, not the world, left out before a sentence is read.

"I live in Denver, if that helps with the time zone" states where the speaker lives;
"if that helps ..." says why they mention it, and is no condition, cause or effect of
anything. Likewise "in case that matters for the schedule", "if that's relevant", "if
that changes anything", "just so you know for the recipes", "for context," and "for
what it's worth,". A closing or opening "after all" ("I didn't get the flat after all",
"After all, I'm the one who cooks") is a discourse adverb, not the "after" of a time or a
cause. And the answer to the question a statement invites, said after it with "and
no," ("I'm a nurse, and no, I don't work nights", "I'm from Texas, and no, I don't own a
cowboy hat") heads off a remark; it is no rule of the speaker's.

:func:`without_asides` removes these and leaves everything else as said.
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import icase

__all__ = ["without_asides"]

# "if that helps (with the time zone)", "in case it matters", "if that's relevant"
_WHY_SAID = icase(
    r"\s*,\s*(?:(?:if|in\s+case)\s+(?:that|it|this)(?:'s|\s+is)?\s+(?:helps?|matters?|"
    r"relevant|useful|important|changes\s+anything|makes\s+a\s+difference)|"
    r"just\s+so\s+you\s+know)\b[^,;.!?]*(?=[.!]*\s*$)"
)
_OPENING = icase(r"^\s*(?:for\s+context|for\s+what\s+it's\s+worth|just\s+so\s+you\s+know)\s*,\s*")
_AFTER_ALL_END = icase(r"\s*,?\s+after\s+all(?=[.!]*\s*$)")
_AFTER_ALL_START = icase(r"^\s*after\s+all\s*,\s*")
# ", and no, I don't ..." after a statement: the answer to a remark it invites
_AND_NO = icase(r"\s*,\s*and\s+no\s*,\s+(?:I|I'm|I've)\b[^;.!?]*(?=[.!]*\s*$)")


def without_asides(sentence: str) -> str:
    """``sentence`` without the words it says about the conversation ("I live in
    Denver, if that helps." -> "I live in Denver."), or as said when it has none."""
    if "?" in sentence:
        return sentence
    out = _OPENING.sub("", sentence)
    out = _AFTER_ALL_START.sub("", out)
    out = _WHY_SAID.sub("", out)
    out = _AFTER_ALL_END.sub("", out)
    out = _AND_NO.sub("", out)
    if not out.strip(" .!"):
        return sentence
    if out != sentence and out[:1].islower() and sentence[:1].isupper():
        out = out[:1].upper() + out[1:]
    return out
