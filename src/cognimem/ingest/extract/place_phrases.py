"""How chat says where someone lives or comes from: "I live in Denver", "... but live
in York", "I've been in Dublin for ten years", "Denver has been home for years", "we
moved to Lyon", "I grew up in Ohio", read by
:class:`~cognimem.ingest.extract.detect_location.LocationReader`."""

from __future__ import annotations

from cognimem.ingest.extract.patterns import PLACE, gated, icase

__all__ = [
    "BEEN_IN",
    "HOME",
    "HOMETOWN",
    "LIVE",
    "LIVE_AFTER",
    "LIVE_NOT",
    "MOVED",
    "MOVED_FROM",
    "SPEAKER_FIRST",
]

# a place one rents or shares to live in
_DWELLING = (
    r"(?:house|flat|apartment|place|cottage|condo|room|studio|cabin|bungalow|townhouse|loft|"
    r"home)"
)
# a word that hedges how it is said, not whether: "I basically grew up in Miami"
_HEDGE = r"(?:\s+(?:basically|actually|really|pretty much|kind of|sort of))?"
LIVE = icase(
    rf"\b(?:I|we){_HEDGE}(?P<verb>\s+live|\s+reside|\s+lived|\s+have lived|\s+have been "
    rf"living|'m living|'re living|'m based|'re based|'m staying|'m settled|\s+live and work|"
    # "I rent a cottage in Cornwall", "I share a flat with two friends in Leeds", "I'm
    # renting a room in Leicester"
    rf"(?:\s+(?:rent|share)|'m\s+renting|'re\s+renting|'m\s+sharing|'re\s+sharing)\s+(?:an?|our|my)\s+(?:[a-z-]+\s+){{0,2}}?{_DWELLING}"
    rf"(?:\s+with\s+[a-z' ]+?)?(?=\s+in\s))"
    # who with, or alone: "I live with my boyfriend in Denver", "I live alone in ..."
    rf"(?:\s+(?:alone|together|with\s+(?:my|our|a|an|the|two|three|four|some)\s+[a-z' ]+?))?"
    rf"\s+(?:(?:out\s+)?in\s+(?:(?:a|an|the|our|my)\s+[a-z ]+?\s+(?:in|near|outside|"
    rf"outside of)\s+)?|"
    # "I'm based out of Chicago"
    rf"(?<=based\s)out\s+of\s+|"
    # "I live just outside Boston": its area
    rf"(?:just\s+)?(?:near|outside|outside of|close to)\s+(?=(?-i:[A-Z]))|"
    # "I live near the beach in San Diego"
    rf"(?:near|by|on)\s+(?:a|an|the|our|my)\s+[a-z ]+?\s+(?:in|near|just outside|outside|"
    rf"outside of)\s+)(?P<v>{PLACE})"
)
# "live" whose subject, the speaker, was said once before it: "I work in Leeds but live in
# York", "(I grew up in Krakow, studied in Warsaw) and now live in Berlin"
LIVE_AFTER = icase(
    rf"(?:^|\b(?:and|but)\s+)(?:now\s+|still\s+|also\s+)?live\s+(?:out\s+)?in\s+(?P<v>{PLACE})"
)
# a sentence whose subject is the speaker
SPEAKER_FIRST = icase(r"^(?:I|we)\b")
# "I've been in Dublin for ten years": living there, by how long
BEEN_IN = icase(
    rf"\b(?:I|we)(?:'ve|\s+have)\s+been\s+in\s+(?P<v>{PLACE})\s+(?:for|since)\s+(?:(?:about|"
    rf"almost|nearly|over|the past|the last)\s+)?(?:\w+\s+)?(?:years?|decades?|(?:19|20)\d\d)\b|"
    # "I'm visiting from Tokyo", "we're in town from Lyon": where the visitor lives
    rf"\b(?:I'm|I am|we're|we are)\s+(?:visiting|in town|over)\s+from\s+(?P<w>{PLACE})"
)
# home said as the place: "Denver has been home for years", "our home is in Glasgow",
# "I call Lisbon home", "Austin is where I live", "home for us is Chicago"
HOME = icase(
    rf"^(?P<v>{PLACE})\s+(?:is|has been|'s been|'s)\s+(?:(?:my|our)\s+)?home\b(?!\s+to\b)|"
    rf"^(?:my|our)\s+home\s+is\s+(?:in\s+)?(?P<w>{PLACE})|"
    rf"\b(?:I|we)\s+(?:now\s+)?call\s+(?P<x>{PLACE})\s+home\b|"
    # "Austin is where I live now", "Home for us is Chicago", "Home is still Boston"
    rf"^(?P<y>{PLACE})\s+is\s+(?:still\s+)?where\s+(?:I|we)\s+(?:now\s+|still\s+)?live\b"
    rf"(?!\s+(?:part|some|half)\b)|"
    rf"^home(?:\s+for\s+(?:me|us))?\s+is\s+(?:still\s+|now\s+)?(?:in\s+)?(?P<z>{PLACE})"
)
LIVE_NOT = icase(rf"\b(?:I|we)\s+don't\s+live\s+in\s+(?P<v>{PLACE})")
MOVED = gated(
    rf"\b(?:I|we)(?:\s+have|'m|'re|\s+am|\s+are)?\s+(?:moved|relocated|moving|relocating)"
    rf"(?:\s+back|\s+away)?\s+(?:from\s+"
    rf"(?P<old>{PLACE})\s+)?to\s+(?P<v>{PLACE})"
)
MOVED_FROM = icase(rf"\b(?:I|we)\s+(?:moved|moved away|left)\s+from\s+(?P<v>{PLACE})")
HOMETOWN = gated(
    rf"(?:\b(?:I'm|we're)\s+(?:originally\s+)?from|\bI\s+(?:originally\s+)?come\s+from|"
    rf"\b(?:I|we){_HEDGE}\s+grew\s+up\s+in|\bI was born in|born and raised in|\bI was "
    rf"raised in)"
    rf"\s+(?:(?:a|an|the)\s+[a-z ]+?\s+(?:in|near|outside|outside of)\s+)?(?P<v>{PLACE})"
)
