"""The secret scan's word pre-checks skip only patterns that could not match: each text
below is found to hold exactly what every pattern run on it finds (the same spans on the
tree before the pre-checks), in any letter case, and in non-ASCII text, where Unicode's
case-insensitive matching pairs the Kelvin sign with "k" and the long s with "s"."""

from __future__ import annotations

import pytest

from cognimem.ingest.gate import find_secrets

CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    ("I've been painting since 2022, the kids love it!", []),
    ("my wifi password is sunshine42", [("password", 8, 30)]),
    ("PASSWORD=Hunter2hunter", [("password", 0, 22)]),
    ("The WiFi PassWord: Tr0ub4dor&3", [("password", 9, 30)]),
    ("set the router password to 'correct horse'", [("password", 0, 42)]),
    ("Reset my PIN to 4821 please", [("password", 0, 20)]),
    ("the door code is 1234", [("password", 4, 21)]),
    ("api_key = sk-abcdefghijklmnopqrstu12345", [("api_key", 10, 39)]),
    ("Authorization: Bearer abcdefgh12345678ijkl", [("bearer_token", 0, 42)]),
    ("curl -H 'authorization: basic dXNlcjpwYXNz' https://x.io", [("bearer_token", 9, 42)]),
    ("token ghp_abcdefghijklmnopqrstuvwxyz0123456789", [("github_token", 6, 46)]),
    ("postgres://admin:s3cretpw@db.internal:5432/app", [("credential_url", 0, 37)]),
    ("AKIAABCDEFGHIJKLMNOP is the access key", [("aws_access_key", 0, 20)]),
    ("slack xoxb-1234567890-abcdefghij", [("slack_token", 6, 32)]),
    ("jwt eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.abcdefghijk", [("jwt", 4, 49)]),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
        [("private_key", 0, 66)],
    ),
    (
        "AIzaAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA and rk_live_abcdefghijklmnop",
        [("api_key", 0, 39), ("api_key", 44, 68)],
    ),
    ("my api Key: Zx9!qwerty77", [("password", 3, 24)]),
    ("paſſword: Zx9!qwerty77 — café", [("password", 0, 22)]),
    ("the İnternet pin is 99887766", [("password", 13, 28)]),
    ("my password to my heart is chocolate", []),
    ("changed my Netflix passcode to Blue-Fish-99", [("password", 0, 43)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_finds_what_every_pattern_finds(text: str, expected: list[tuple[str, int, int]]) -> None:
    assert [(f.kind, f.start, f.end) for f in find_secrets(text)] == expected


def test_a_text_read_again_gives_the_same_findings_in_a_list_of_its_own() -> None:
    # the write path reads a message to mask it, then again as its chunk: the second
    # reading gives what the first did, and changing one list leaves the other alone
    text = "my wifi password is sunshine42 and token ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    first = find_secrets(text)
    first.clear()
    again = find_secrets("".join(text))  # an equal text, another object
    assert [(f.kind, f.start, f.end) for f in again] == [
        ("password", 8, 30),
        ("github_token", 41, 81),
    ]
    assert find_secrets(text) == again
    long = "x " * 3000 + text  # a long text is read anew each time
    assert [f.kind for f in find_secrets(long)] == ["password", "github_token"]
    assert find_secrets(long) == find_secrets(long)
