"""The privacy gate: secret detection and PII redaction.

:func:`find_secrets` decides whether a chunk may be stored at all (a chunk carrying a
credential is skipped); :func:`redact_pii` rewrites what is stored, replacing personal
data with placeholders such as ``[EMAIL]``.

Both lean towards precision. Everything here runs on every chat turn, so a pattern that
fires on "I've been painting since 2022" would corrupt ordinary memories; each pattern
is anchored on context (``+`` for international phones, a Luhn check for cards, a
keyword *and* a plausible value for passwords) instead of bare digit runs.
"""

from __future__ import annotations

import bisect
import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "Redaction",
    "SecretFinding",
    "find_secrets",
    "forget_secrets",
    "kept_secret_texts",
    "redact_pii",
]


@dataclass(frozen=True)
class SecretFinding:
    """One credential found in a text: its kind and the ``text[start:end]`` span."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True)
class Redaction:
    """The redacted text and how many items of each kind were replaced."""

    text: str
    counts: dict[str, int]


# --------------------------------------------------------------------------- secrets

_TOKEN_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "private_key",
        re.compile(
            r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)?"
        ),
    ),
    ("aws_access_key", re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])")),
    (
        "github_token",
        re.compile(
            r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{22,255})"
            r"(?![A-Za-z0-9_])"
        ),
    ),
    ("slack_token", re.compile(r"(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}")),
    (
        "api_key",
        re.compile(
            r"(?<![A-Za-z0-9_-])(?:sk-(?=[A-Za-z0-9_-]*[0-9A-Z])[A-Za-z0-9_-]{20,}"
            r"|AIza[0-9A-Za-z_-]{35}|(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,})"
        ),
    ),
    (
        "jwt",
        re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ),
)

_BEARER = re.compile(
    r"(?P<auth>\bauthorization\s*[:=]\s*)?\b(?P<scheme>bearer|basic|token)\s+"
    r"(?P<token>[A-Za-z0-9._~+/-]{8,}=*)",
    re.IGNORECASE,
)

_CREDENTIAL_URL = re.compile(
    r"(?<![\w+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/@]*:(?P<password>[^\s/@]+)@[A-Za-z0-9.\[\]-]+"
)

_PASSWORD_WORDS = (
    r"pass(?:word|wd|code|phrase)|pass[ -]code|pwd|(?P<pin>pin(?:[ -]?(?:code|number))?)"
    r"|(?:door|gate|alarm|garage|safe|lock|entry|access|security)[ -]?code"
)
_KEY_WORDS = (
    r"(?:(?:client|app|aws)[ _-]?)?secret(?:[ _-]?(?:access[ _-]?)?key)?"
    r"|(?:api|access|auth|refresh|session)[ _-]?(?:key|token)|apikey|token"
)
_VALUE = r"(?P<value>\"[^\"\n]{1,100}\"|'[^'\n]{1,100}'|`[^`\n]{1,100}`|[^\s\"'`]+)"
_ASSIGNMENT = re.compile(
    rf"(?<![A-Za-z0-9])(?:(?P<pw>{_PASSWORD_WORDS})|(?P<key>{_KEY_WORDS}))(?![A-Za-z0-9])"
    r"(?:\s+(?:for|to|of|on|at)\s+(?:[\w'.-]+\s+){0,2}?[\w'.-]+)?[\"']?"
    r"(?P<op>\s*[:=]\s*|\s+(?:is|was)(?:\s*:)?\s+(?:now\s+|still\s+|just\s+|actually\s+)?)"
    + _VALUE,
    re.IGNORECASE,
)
_SET_TO = re.compile(
    r"\b(?:set|change|changed|reset|update|updated)\s+(?:\w+\s+){0,2}?"
    rf"(?:(?P<pw>{_PASSWORD_WORDS})|(?P<key>{_KEY_WORDS}))\s+to\s+(?P<op>)" + _VALUE,
    re.IGNORECASE,
)

# Before the keyword, these make a bare word value ("the wifi password is sunshine")
# believable; without them "the password to my heart is chocolate" would be a secret.
_SERVICE = re.compile(
    r"(?:wi-?fi|router|network|netflix|account|admin|root|login|e-?mail|gmail|bank|laptop"
    r"|computer|phone|icloud|server|database|db)(?:'s)?[ _-]?$",
    re.IGNORECASE,
)
# Words that describe a password rather than being one ("my password is weak").
_PLACEHOLDER_VALUES = frozenset(
    {
        "none", "null", "nil", "undefined", "redacted", "hidden", "empty", "n/a", "na",
        "required", "optional", "unknown", "tbd", "wrong", "right", "correct", "incorrect",
        "weak", "strong", "long", "short", "secure", "insecure", "safe", "unsafe", "same",
        "different", "expired", "invalid", "valid", "changed", "new", "old", "ready", "saved",
        "stored", "needed", "missing", "encrypted", "easy", "hard", "simple", "complicated",
        "complex", "good", "bad", "fine", "okay", "here", "there", "this", "that", "mine",
        "yours", "blank", "reset", "updated", "done", "gone", "forgotten", "lost", "stolen",
        "compromised", "leaked", "working", "broken", "secret", "private", "public", "below",
        "above", "attached", "inside", "written", "too", "very", "really", "still", "also",
        "not", "what", "which", "where", "please", "thanks"
    }
)  # fmt: skip
_TRAILING = ".,;:!?)]}"


# What each pattern above cannot match without: a literal of the case-sensitive token
# patterns, or (case-insensitive patterns) a word every alternative of the pattern
# spells. A text holding none of a pattern's is skipped by it: nothing is found that
# would not be, most chat turns cost a few substring tests instead of the scans.
_TOKEN_NEEDLES: dict[str, tuple[str, ...]] = {
    "private_key": ("-----BEGIN",),
    "aws_access_key": ("AKIA", "ASIA"),
    "github_token": ("_",),  # "gh?_" or "github_pat_"
    "slack_token": ("xox",),
    "api_key": ("sk-", "AIza", "k_"),  # "sk_live_", "rk_test_", ...
    "jwt": ("eyJ",),
}
_BEARER_WORDS = ("bearer", "basic", "token")
# every alternative of _PASSWORD_WORDS and _KEY_WORDS holds one of these
_SECRET_WORDS = ("pass", "pwd", "pin", "code", "secret", "key", "token")
_SETTING_WORDS = ("set", "change", "update")  # _SET_TO's verbs ("reset" holds "set")


class _Needles:
    """Whether ``text`` holds any of some words: as written, or ignoring case. Ignoring
    case is lower-casing only for an ASCII text: Unicode's case-insensitive matching
    also pairs "K" (Kelvin) with "k" and "ſ" with "s", so any other text always may."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.folded = text.lower() if text.isascii() else None

    def hold(self, words: tuple[str, ...]) -> bool:
        return any(w in self.text for w in words)

    def hold_folded(self, words: tuple[str, ...]) -> bool:
        return self.folded is None or any(w in self.folded for w in words)


# the findings of the texts read last (each at most ``_KEPT_CHARS`` long): the write path
# reads a message to mask it and reads it again, as its chunk, to decide whether to store
# it (most messages are one chunk, the same text). Cleared whole when full (one call, so
# threads never see it half emptied).
_KEPT: dict[str, tuple[SecretFinding, ...]] = {}
_KEPT_TEXTS = 1024
_KEPT_CHARS = 4096


def forget_secrets() -> None:
    """Drop the kept findings, and with them the texts they are keyed by (raw messages,
    secrets included): after an erasure."""
    _KEPT.clear()


def kept_secret_texts() -> int:
    """How many texts' findings are kept now (an erasure leaves none)."""
    return len(_KEPT)


def find_secrets(text: str) -> list[SecretFinding]:
    """Find credentials in ``text``; an empty list means the text is clean.

    Findings are sorted by start and never overlap (a specific token such as a
    GitHub token wins over the ``password`` assignment that contains it).
    """
    kept = _KEPT.get(text)
    if kept is None:
        kept = tuple(_find_secrets(text))
        if len(text) <= _KEPT_CHARS:
            if len(_KEPT) >= _KEPT_TEXTS:
                _KEPT.clear()
            _KEPT[text] = kept
    return list(kept)


def _find_secrets(text: str) -> list[SecretFinding]:
    found: list[SecretFinding] = []
    may = _Needles(text)
    for kind, pattern in _TOKEN_PATTERNS:
        if may.hold(_TOKEN_NEEDLES[kind]):
            found.extend(SecretFinding(kind, m.start(), m.end()) for m in pattern.finditer(text))
    for m in _BEARER.finditer(text) if may.hold_folded(_BEARER_WORDS) else ():
        token = m.group("token")
        is_bearer = m.group("scheme").lower() == "bearer"
        if m.group("auth") or (
            is_bearer and len(token) >= 16 and _has_digit(token) and _has_alpha(token)
        ):
            found.append(SecretFinding("bearer_token", m.start(), m.end()))
    for m in _CREDENTIAL_URL.finditer(text) if "://" in text else ():
        if not _is_placeholder(m.group("password")):
            found.append(SecretFinding("credential_url", m.start(), m.end()))
    assigning = may.hold_folded(_SECRET_WORDS)
    for pattern in (_ASSIGNMENT, _SET_TO) if assigning else ():
        if pattern is _SET_TO and not may.hold_folded(_SETTING_WORDS):
            continue
        for m in pattern.finditer(text):
            end = _assignment_end(text, m)
            if end is not None:
                found.append(SecretFinding("password", m.start(), end))

    kept: list[SecretFinding] = []  # sorted by start, disjoint
    for finding in found:  # earlier (more specific) patterns win overlaps
        i = bisect.bisect_left(kept, finding.start, key=lambda f: f.start)
        if (i == 0 or kept[i - 1].end <= finding.start) and (
            i == len(kept) or finding.end <= kept[i].start
        ):
            kept.insert(i, finding)
    return kept


# how a stored text marks a secret it held (a chunk with one is recognised by it)
SECRET_MARK = "[SECRET:"


def mask_secrets(text: str) -> str:
    """Replace every secret span with ``[SECRET:<kind>]`` (last first, so offsets hold)."""
    for finding in sorted(find_secrets(text), key=lambda f: f.start, reverse=True):
        text = f"{text[: finding.start]}{SECRET_MARK}{finding.kind}]{text[finding.end :]}"
    return text


def _assignment_end(text: str, m: re.Match[str]) -> int | None:
    """Return the end of the secret value if ``m`` assigns a plausible one, else None."""
    raw = m.group("value")
    quoted = raw[0] in "\"'`"
    value = raw[1:-1] if quoted else raw.rstrip(_TRAILING)
    end = m.end() if quoted else m.start("value") + len(value)
    if len(value) < 3 or _is_placeholder(value):
        return None
    op = m.group("op").strip()
    mixed = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    symbol = any(c in "!@#$%^&*+=~?|_" for c in value)
    if m.group("key"):
        strong = (_has_digit(value) and _has_alpha(value)) or mixed or symbol
        return end if len(value) >= 8 and (strong or quoted or op == "=") else None
    if m.group("pin"):
        return end if value.isdigit() and 4 <= len(value) <= 12 else None
    if len(value) >= 4 and (_has_digit(value) or mixed or symbol):
        return end
    if quoted or op == "=":
        return end
    rest = text[m.start("value") + len(value) :]
    after = rest.lstrip(" \t")
    at_end = after == "" or after[0] in _TRAILING or after[0] == "\n" or rest[0] in _TRAILING
    believable = op == ":" or _SERVICE.search(text, 0, m.start()) is not None
    if (
        believable
        and at_end
        and value.isalpha()
        and len(value) >= 4
        and value.lower() not in _PLACEHOLDER_VALUES
    ):
        return end
    return None


def _is_placeholder(value: str) -> bool:
    return (
        set(value) <= set("*•xX#._-")
        or value.startswith(("<", "{", "$(", "${", "%(", "/", "~/"))
        or value.lower() in {"none", "null", "nil", "undefined", "redacted", "n/a"}
    )


def _has_digit(value: str) -> bool:
    return any(c.isdigit() for c in value)


def _has_alpha(value: str) -> bool:
    return any(c.isalpha() for c in value)


# ------------------------------------------------------------------------------ PII

_Check = Callable[[re.Match[str]], str | None]  # the replacement, or None to keep

_EMAIL = re.compile(
    r"(?<![\w.+%-])[A-Za-z0-9][A-Za-z0-9._%+-]*@"
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![A-Za-z0-9-])"
)
_CARD = re.compile(
    r"(?<![\w+.,$-])(?<!\d[ -])(?:"
    r"\d{13,19}(?!\w)"
    r"|\d{4}(?P<s1>[ -])\d{4}(?P=s1)\d{4}(?P=s1)\d{4}(?:(?P=s1)\d{3})?(?!\w|(?P=s1)\d)"
    r"|\d{4}(?P<s2>[ -])\d{6}(?P=s2)\d{4,5}(?!\w|(?P=s2)\d))"
    r"(?![.,]\d)"
)
_SSN = re.compile(r"(?<![\w-])(?!000|666|9)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w]|-\d)")
_NINO = re.compile(
    r"(?<![A-Za-z0-9])(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]"
    r"(?:\d{6} ?| \d{2} \d{2} \d{2} ?)[A-D](?![A-Za-z0-9])"
)
_SIN = re.compile(r"(?<![\w-])[1-79]\d{2}-\d{3}-\d{3}(?![\w]|-\d)")  # Canada, Luhn-checked
_DNI = re.compile(r"(?<![\w-])(?P<num>[XYZ]?\d{7,8})-?(?P<letter>[A-Z])(?![\w])")  # Spain
_AADHAAR = re.compile(r"(?<![\w-])[2-9]\d{3}(?P<s>[ -])\d{4}(?P=s)\d{4}(?![\w]|[ -]\d)")
_IPV6 = re.compile(r"(?<![\w:.])[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*")
_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_IPV4 = re.compile(rf"(?<![\w.])(?:{_OCTET}\.){{3}}{_OCTET}(?![\w]|\.\d)")
_VERSION_BEFORE = re.compile(r"(?:\bversion|\bver\.?|\breleased?|\bbuild|\bv)\s*$", re.IGNORECASE)
_INTL_PHONE = re.compile(
    r"(?<![\w+])\+\d{1,4}(?:[ .-]?(?:\(\d{1,4}\)|\d{1,14})){1,7}(?![\w]|[.,]\d)"
)
_NA_PHONE = re.compile(
    r"(?<![\w$+.,/-])(?:1[ .-])?(?:\(\d{3}\) ?\d{3}[-. ]\d{4}|\d{3}(?P<s>[-. ])\d{3}(?P=s)\d{4})"
    r"(?![\w]|[.,/:-]\d)"
)

_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
# Verhoeff multiplication and permutation tables (Aadhaar check digit).
_VERHOEFF_D = [
    [int(c) for c in row]
    for row in (
        "0123456789", "1234067895", "2340178956", "3401289567", "4012395678", "5987604321",
        "6598710432", "7659821043", "8765932104", "9876543210"
    )
]  # fmt: skip
_VERHOEFF_P = [
    [int(c) for c in row]
    for row in (
        "0123456789", "1576283094", "5803796142", "8916043527", "9453126870", "4286573901",
        "2793806415", "7046913258"
    )
]  # fmt: skip


def _luhn(digits: str) -> bool:
    total = 0
    for i, c in enumerate(reversed(digits)):
        d = int(c) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _verhoeff(digits: str) -> bool:
    check = 0
    for i, c in enumerate(reversed(digits)):
        check = _VERHOEFF_D[check][_VERHOEFF_P[i % 8][int(c)]]
    return check == 0


def _digits(s: str) -> str:
    return "".join(c for c in s if c.isdigit())


def _card(m: re.Match[str]) -> str | None:
    digits = _digits(m.group())
    ok = 13 <= len(digits) <= 19 and digits[0] in "23456" and _luhn(digits)
    return "[CARD]" if ok else None


def _sin(m: re.Match[str]) -> str | None:
    return "[NATIONAL_ID]" if _luhn(_digits(m.group())) else None


def _dni(m: re.Match[str]) -> str | None:
    num = m.group("num")
    number = int(str("XYZ".index(num[0])) + num[1:] if num[0] in "XYZ" else num)
    ok = len(num) == 8 and _DNI_LETTERS[number % 23] == m.group("letter")
    return "[NATIONAL_ID]" if ok else None


def _aadhaar(m: re.Match[str]) -> str | None:
    return "[NATIONAL_ID]" if _verhoeff(_digits(m.group())) else None


def _ipv6(m: re.Match[str]) -> str | None:
    candidate = m.group()
    stripped = candidate.rstrip(".")
    if stripped.endswith(":") and not stripped.endswith("::"):
        stripped = stripped[:-1]
    after = m.string[m.start() + len(candidate) : m.start() + len(candidate) + 1]
    if after.isalnum() or after == "_" or stripped.count(":") < 2 or not _has_digit(stripped):
        return None
    try:
        ipaddress.IPv6Address(stripped)
    except ValueError:
        return None
    return "[IP]" + candidate[len(stripped) :]


def _ipv4(m: re.Match[str]) -> str | None:
    before = m.string[max(0, m.start() - 12) : m.start()]
    return None if _VERSION_BEFORE.search(before) else "[IP]"


def _intl_phone(m: re.Match[str]) -> str | None:
    number = m.group()
    digits = _digits(number)
    separated = any(c in " .-()" for c in number)
    ok = 8 <= len(digits) <= 15 and (separated or len(digits) >= 10)
    return "[PHONE]" if ok else None


# every pattern below matches only a span holding a digit or "@"
_PII_HINT = re.compile(r"[\d@]")

# Order matters: emails hide their digits from later patterns, cards come before the
# shorter national ids and phones, IPv6 before IPv4 (for "::ffff:1.2.3.4").
_PII_STEPS: tuple[tuple[str, re.Pattern[str], _Check], ...] = (
    ("email", _EMAIL, lambda m: "[EMAIL]"),
    ("card", _CARD, _card),
    ("national_id", _SSN, lambda m: "[NATIONAL_ID]"),
    ("national_id", _NINO, lambda m: "[NATIONAL_ID]"),
    ("national_id", _SIN, _sin),
    ("national_id", _DNI, _dni),
    ("national_id", _AADHAAR, _aadhaar),
    ("ip", _IPV6, _ipv6),
    ("ip", _IPV4, _ipv4),
    ("phone", _INTL_PHONE, _intl_phone),
    ("phone", _NA_PHONE, lambda m: "[PHONE]"),
)


def redact_pii(text: str) -> Redaction:
    """Replace emails, phone numbers, cards, national ids and IP addresses.

    Placeholders are ``[EMAIL]``, ``[PHONE]``, ``[CARD]``, ``[NATIONAL_ID]`` and
    ``[IP]``; ``counts`` maps each kind found (``"email"``, ``"phone"``, ``"card"``,
    ``"national_id"``, ``"ip"``) to how many were replaced. Redacting twice changes
    nothing more.
    """
    counts: dict[str, int] = {}
    if _PII_HINT.search(text) is None:  # most messages: no pattern can match, skip them all
        return Redaction(text=text, counts=counts)
    # A replacement can change the context another pattern looked at, so repeat until
    # nothing changes; every replacement removes digits, "@" or ":", so this ends.
    while True:
        before = text
        for kind, pattern, check in _PII_STEPS:
            text = pattern.sub(_replacer(kind, check, counts), text)
        if text == before:
            return Redaction(text=text, counts=counts)


def _replacer(kind: str, check: _Check, counts: dict[str, int]) -> Callable[[re.Match[str]], str]:
    def replace(m: re.Match[str]) -> str:
        replacement = check(m)
        if replacement is None:
            return m.group()
        counts[kind] = counts.get(kind, 0) + 1
        return replacement

    return replace
