"""The privacy gate: secrets are found, PII is redacted, ordinary chat is untouched."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cognimem.ingest.gate import Redaction, SecretFinding, find_secrets, redact_pii

# Everyday chat lines (written for these tests) that neither function may touch.
ORDINARY = [
    "I went to the LGBTQ support group on 7 May 2023.",
    "I've been painting since 2022, about 3 hours a day.",
    "Hi Pri! Lovely to see you! How are you keeping?",
    "We got back at 1:56 pm and it cost $1,200.50 for the whole trip.",
    "I ran 10000 steps today, up from 8,500 yesterday!",
    "The concert is on 2023-05-08, doors open 7:30 p.m.",
    "My daughter turns 7 on 8/5/2023, can you believe it?",
    "The app updated to v1.2.3 and then 2.0.1 broke everything.",
    "We won 3-2 in overtime and the score was 21:17 at halftime.",
    "I forgot my password again, so I had to reset your password link twice.",
    "The secret ingredient is love, and the secret is out now.",
    "The password to my heart is chocolate.",
    "My password is too weak, I need a new one.",
    "What's your password manager called?",
    "Thanks, it was a token of appreciation from the team.",
    "He was the bearer of bad news about the 2021 season.",
    "Room 404, floor 12, building B. Call after 5.",
    "Python 3.11.7 is faster than 3.10 by about 25%.",
    "I read 52 books in 2022 and 61 in 2023.",
    "Lat 40.7128, long -74.0060 is New York.",
    "The meeting moved from 10:30 to 11:45 on Tuesday.",
    "Order 1234567 shipped; it weighs 2.5 kg.",
    "I pin my notes to the board and the pin is on the map.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_chat_has_no_secrets(text: str) -> None:
    assert find_secrets(text) == []


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_chat_is_not_redacted(text: str) -> None:
    assert redact_pii(text) == Redaction(text=text, counts={})


# ------------------------------------------------------------------------- secrets

_JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
    "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----", "private_key"),
        ("key: -----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1r", "private_key"),
        ("-----BEGIN PGP PRIVATE KEY BLOCK-----", "private_key"),
        ("aws id AKIAIOSFODNN7EXAMPLE here", "aws_access_key"),
        ("ASIAY34FZKBOKMUTVV7A", "aws_access_key"),
        ("token ghp_16C7e42F292c6912E7710c838347Ae178B4a", "github_token"),
        ("gho_16C7e42F292c6912E7710c838347Ae178B4a", "github_token"),
        ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_token"),
        ("slack: xoxb-123456789012-1234567890123-AbCdEfGhIjKl", "slack_token"),
        ("xoxp-1234567890-abcdef", "slack_token"),
        ("use sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34 for it", "api_key"),
        ("sk-ant-api03-AbCdEfGh1234567890IjKlMnOp", "api_key"),
        ("AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "api_key"),
        ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", "api_key"),
        ("rk_live_4eC39HqLyjWDarjtT1zdp7dc", "api_key"),
        (f"cookie={_JWT}", "jwt"),
        ("Authorization: Bearer abc123.def456-ghi", "bearer_token"),
        ("authorization: basic dXNlcjpwYXNzd29yZA==", "bearer_token"),
        ("send it with Bearer a1b2c3d4e5f6g7h8i9j0", "bearer_token"),
        ("my password is hunter2!", "password"),
        ("password: S3cret", "password"),
        ("api_key=abcd1234efgh", "password"),
        ("the wifi pwd is BlueFish42", "password"),
        ("the wifi password is sunshine.", "password"),
        ("Gmail password: correcthorse", "password"),
        ('{"password": "hunter2"}', "password"),
        ("export DB_PASSWORD=supersecret", "password"),
        ("My password for Netflix is Tr0ub4dor&3", "password"),
        ("I changed my password to P@ssw0rd2024 yesterday", "password"),
        ("The passcode is 7291", "password"),
        ("my PIN is 4821", "password"),
        ("the door code is 1379#", "password"),
        ("client_secret: 9f8e7d6c5b4a3210", "password"),
        ("my api key is AbCdEf123456", "password"),
        ("postgres://user:pass@host:5432/db", "credential_url"),
        ("redis://:s3cr3t@cache.internal:6379", "credential_url"),
        ("https://admin:hunter2@example.com/login", "credential_url"),
    ],
)
def test_finds_secret(text: str, kind: str) -> None:
    assert [f.kind for f in find_secrets(text)] == [kind]


@pytest.mark.parametrize(
    "text",
    [
        "I forgot my password",
        "reset your password to continue",
        "Please reset your password.",
        "The password is in the drawer.",
        "My wifi password is printed on the router.",
        "the password is wrong",
        "my password is 8 characters long",
        "Password: ********",
        "password=${DB_PASSWORD}",
        "password: <your password>",
        "The secret is out",
        "token: see below",
        "API key rotation is scheduled for Monday.",
        "postgres://user@host/db",
        "postgres://user:****@host/db",
        "https://example.com:8080/path",
        "ghp_short",
        "sk-learn and sk-8 are not keys",
        "AKIA is not a key on its own",
        "the bearer bond matured",
        "eyJhbGciOiJIUzI1NiJ9 alone is not a JWT",
        "my pin number is lost",
    ],
)
def test_not_a_secret(text: str) -> None:
    assert find_secrets(text) == []


def test_finding_span_covers_the_secret() -> None:
    text = "deploy with AKIAIOSFODNN7EXAMPLE now"
    [finding] = find_secrets(text)
    assert finding == SecretFinding("aws_access_key", 12, 32)
    assert text[finding.start : finding.end] == "AKIAIOSFODNN7EXAMPLE"


def test_password_span_includes_the_value() -> None:
    text = "ok, my password is hunter2! thanks"
    [finding] = find_secrets(text)
    assert "hunter2" in text[finding.start : finding.end]


def test_specific_token_wins_over_the_assignment_around_it() -> None:
    text = "OPENAI_API_KEY=sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34"
    assert [f.kind for f in find_secrets(text)] == ["api_key"]


def test_findings_are_sorted_and_disjoint() -> None:
    text = "password: S3cret and AKIAIOSFODNN7EXAMPLE and xoxb-123456789012-abc"
    findings = find_secrets(text)
    assert [f.kind for f in findings] == ["password", "aws_access_key", "slack_token"]
    for before, after in itertools.pairwise(findings):
        assert before.end <= after.start


# ----------------------------------------------------------------------------- PII


@pytest.mark.parametrize(
    ("text", "expected", "kind"),
    [
        # email
        ("mail jane.doe@example.com now", "mail [EMAIL] now", "email"),
        ("Reach me: j_doe+tag@mail.example.co.uk!", "Reach me: [EMAIL]!", "email"),
        ("Email: BOB@EXAMPLE.ORG.", "Email: [EMAIL].", "email"),
        # card (Luhn-valid test numbers)
        ("card 4111 1111 1111 1111 ok", "card [CARD] ok", "card"),
        ("card 5500-0000-0000-0004", "card [CARD]", "card"),
        ("visa 4012888888881881", "visa [CARD]", "card"),
        ("amex 3782 822463 10005", "amex [CARD]", "card"),
        ("amex 378282246310005", "amex [CARD]", "card"),
        ("discover 6011-1111-1111-1117", "discover [CARD]", "card"),
        # national ids
        ("SSN 078-05-1120.", "SSN [NATIONAL_ID].", "national_id"),
        ("NINO AB 12 34 56 C", "NINO [NATIONAL_ID]", "national_id"),
        ("NINO AB123456C", "NINO [NATIONAL_ID]", "national_id"),
        ("SIN 130-692-544", "SIN [NATIONAL_ID]", "national_id"),
        ("DNI 12345678Z", "DNI [NATIONAL_ID]", "national_id"),
        ("NIE X1234567L", "NIE [NATIONAL_ID]", "national_id"),
        ("Aadhaar 2345 6789 0124", "Aadhaar [NATIONAL_ID]", "national_id"),
        # phone
        ("call (555) 123-4567", "call [PHONE]", "phone"),
        ("call 555-123-4567.", "call [PHONE].", "phone"),
        ("call 555.123.4567", "call [PHONE]", "phone"),
        ("call +1 555 123 4567", "call [PHONE]", "phone"),
        ("call +1 (555) 123-4567", "call [PHONE]", "phone"),
        ("call 1-800-555-1234", "call [PHONE]", "phone"),
        ("UK +44 20 7946 0958", "UK [PHONE]", "phone"),
        ("FR +33 1 23 45 67 89", "FR [PHONE]", "phone"),
        ("mobile +447911123456", "mobile [PHONE]", "phone"),
        ("DE +49-30-1234567", "DE [PHONE]", "phone"),
        # ip
        ("from 192.168.1.1 today", "from [IP] today", "ip"),
        ("server 10.0.0.255:8080", "server [IP]:8080", "ip"),
        ("ip 2001:0db8:85a3:0000:0000:8a2e:0370:7334", "ip [IP]", "ip"),
        ("ip 2001:db8::8a2e:370:7334.", "ip [IP].", "ip"),
        ("link-local fe80::1 here", "link-local [IP] here", "ip"),
        ("mapped ::ffff:192.168.1.1", "mapped [IP]", "ip"),
    ],
)
def test_redacts(text: str, expected: str, kind: str) -> None:
    assert redact_pii(text) == Redaction(text=expected, counts={kind: 1})


@pytest.mark.parametrize(
    "text",
    [
        # cards failing Luhn, or not card-shaped
        "4111 1111 1111 1112",
        "4111111111111112",
        "timestamp 1683532800000",
        "ISBN 978-3-16-148410-0",
        # national ids that are not valid
        "000-12-3456",
        "666-12-3456",
        "900-12-3456",
        "123-00-4567",
        "123-45-0000",
        "QQ 12 34 56 C",
        "GB 12 34 56 A",
        "DNI 12345678A",
        "Aadhaar 2345 6789 0123",
        "SIN 130-692-545",
        # not phones
        "in 2023",
        "on 2023-05-08",
        "on 8/5/2023",
        "at 1:56 pm",
        "for $1,200.50",
        "I ran 10000 steps",
        "I got +5 points and +2.5% growth",
        "Phone: +1",
        "zip 94105-1234",
        # not IPs
        "1.2.3.4.5",
        "v1.2.3.4",
        "version 1.2.3.4",
        "256.1.1.1",
        "192.168.1",
        "12:30:45",
        "std::vector and a::b",
        "dead::beef",
        "MAC 00:1A:2B:3C:4D:5E",
        # not emails
        "@handle",
        "user@localhost",
    ],
)
def test_leaves_alone(text: str) -> None:
    assert redact_pii(text) == Redaction(text=text, counts={})


def test_counts_every_kind() -> None:
    text = (
        "Mail a@b.com or c@d.org, call 555-123-4567, card 4111 1111 1111 1111, "
        "SSN 078-05-1120, host 8.8.8.8"
    )
    result = redact_pii(text)
    assert result.counts == {"email": 2, "phone": 1, "card": 1, "national_id": 1, "ip": 1}
    assert result.text == (
        "Mail [EMAIL] or [EMAIL], call [PHONE], card [CARD], SSN [NATIONAL_ID], host [IP]"
    )


def test_cards_are_not_mistaken_for_phones() -> None:
    assert redact_pii("5500 0000 0000 0004").counts == {"card": 1}
    assert redact_pii("5500 0000 0000 0005").counts == {}


def test_placeholders_are_left_alone() -> None:
    text = "[EMAIL] [PHONE] [CARD] [NATIONAL_ID] [IP]"
    assert redact_pii(text) == Redaction(text=text, counts={})


_pii_alphabet = st.sampled_from(
    [
        *list("0123456789 -.:+()@abfx"),
        "4111 1111 1111 1111",
        "555-123-4567",
        "a@b.co",
        "::",
        "192.168.0.1",
        "078-05-1120",
    ]
)


@given(st.lists(_pii_alphabet, max_size=40).map("".join))
def test_redaction_is_idempotent(text: str) -> None:
    once = redact_pii(text)
    twice = redact_pii(once.text)
    assert twice == Redaction(text=once.text, counts={})


@given(st.lists(_pii_alphabet, max_size=40).map("".join))
def test_placeholders_never_nest(text: str) -> None:
    redacted = redact_pii(text).text
    for placeholder in ("EMAIL", "PHONE", "CARD", "NATIONAL_ID", "IP"):
        assert f"[[{placeholder}]]" not in redacted
        assert f"[{placeholder}[" not in redacted
    total = sum(redact_pii(text).counts.values())
    assert redacted.count("[") - text.count("[") == total


@given(st.text(max_size=60))
def test_secret_findings_are_valid_spans(text: str) -> None:
    findings = find_secrets(text)
    for finding in findings:
        assert 0 <= finding.start < finding.end <= len(text)
    for before, after in itertools.pairwise(findings):
        assert before.end <= after.start
