"""Richer inputs for a learned stance reader, all from the shipped MiniLM int8 model.

Tried for issue 29 item 1 (branch ``stance23``) after the pooled-vector reader
(``stance_reader.py``) carried over to unseen topics only a quarter of the time. Every
block is computed from one run of the model the write funnel already loads
(``OnnxMiniLMEmbedder``: all-MiniLM-L6-v2, int8) over the sentence, plus, for the bank
block, one run over the sentence with its object masked:

- ``mean``: the mean of the token states, [CLS] and [SEP] included (the funnel's own
  item vector);
- ``max``: the max over the word tokens' states of each dimension;
- ``predicate``: the mean of the token states after the sentence's first first-person
  word ("I", "I'm", "me", "my", "we" ...): the predicate span, where a stance is said;
  the whole sentence when there is none or nothing follows it;
- ``bank``: the cosine of the sentence *with its object masked* (each run of words that
  are neither function words nor ``general`` words becomes "it") to each sentence of
  ``BANK``, canonical stances and non-stances about "it" written for this reader (the
  raw cosines); ``masked``: the masked sentence's own vector;
- ``words``: the hashed words and word pairs of ``stance_reader.features``.

Which words are ``general`` (kept when masking) is learned from the training rows: a
word of statements on at least ``GENERAL_TOPICS`` different topics (a topic's own nouns
are on one or two; 8 of the 83 tune topics, chosen by reading masks of sentences
written for the purpose, not of any set), or such a word plus "s". The vector blocks
are at unit length, ``words`` at ``stance_reader.LEXICAL_SCALE``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from stance_reader import features as pooled_and_words

from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.providers.onnx_batches import batch_feeds
from cognimem.providers.onnx_models import run_session
from cognimem.text.stopwords import STOP_WORDS

__all__ = [
    "BANK",
    "BLOCKS",
    "TokenStates",
    "assemble",
    "general_words",
    "mask_object",
    "sentence_blocks",
]

DIMENSION = 384
GENERAL_TOPICS = 8
_WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019]*")
_FIRST_PERSON = frozenset({"i", "me", "my", "we", "us", "our", "myself"})
# absorbed into the mask when they stand right before a masked run ("the [it]")
_ARTICLES = frozenset({"a", "an", "the", "some", "any", "my", "our", "this", "that", "these"})

# Canonical sentences about a masked object ("it"), written for this reader: standing
# stances against, for, exclusive, conditional and reasoned, and sentences that state
# no standing stance of the speaker's (a question, a one-off, someone else's taste, a
# hypothetical, a past habit, a plan, a fact). Plain forms only, no idioms.
BANK = (
    # against
    "I don't like it.",
    "I hate it.",
    "I avoid it.",
    "I never do it.",
    "I can't have it.",
    "I can't stand it.",
    "I don't want it.",
    "I won't do it.",
    "I refuse to do it.",
    "I stay away from it.",
    "I dislike it.",
    "I'm not interested in it.",
    "I don't enjoy it.",
    "I prefer not to do it.",
    "It is not for me.",
    "I'm allergic to it.",
    "I don't do it anymore.",
    # for
    "I like it.",
    "I love it.",
    "I prefer it.",
    "I enjoy it.",
    "I always do it.",
    "I want it.",
    "I need it.",
    "It is my favourite.",
    "I'm a big fan of it.",
    "I'd rather do it.",
    # exclusive, conditional, reasoned
    "I only do it.",
    "I only want it.",
    "When I travel I do it.",
    "If it is late I avoid it.",
    "I avoid it because of my health.",
    "I do it because it helps me.",
    # no standing stance
    "Do you like it?",
    "Should I try it?",
    "I did it yesterday.",
    "I bought it last week.",
    "My friend hates it.",
    "She loves it.",
    "If I had time I would do it.",
    "I used to like it.",
    "I'm going to do it tomorrow.",
    "It is on Tuesday.",
    "It was great last night.",
    "Can you book it for me?",
    "It costs ten dollars.",
)
BLOCKS = ("mean", "max", "predicate", "bank", "masked", "words")


@dataclass(frozen=True)
class TokenStates:
    """One sentence's token states (special tokens dropped) and their words."""

    states: np.ndarray  # (tokens, 384), [CLS] and [SEP] included
    words: tuple[str, ...]  # each token's text, [CLS] and [SEP] included


def _unit(v: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(v))
    return v / norm if norm else v


class TokenEmbedder(OnnxMiniLMEmbedder):
    """The shipped MiniLM, read token by token."""

    def token_states(self, texts: Sequence[str]) -> list[TokenStates]:
        tokenizer, session, inputs = self._loader.get()
        encodings = tokenizer.encode_batch(list(texts), add_special_tokens=True)
        out: list[TokenStates | None] = [None] * len(texts)
        for chunk, rows in self._run_batches(
            encodings, lambda batch: self._states(session, inputs, batch)
        ):
            for i, row in zip(chunk, rows, strict=True):
                out[i] = row
        return [s for s in out if s is not None]

    def _states(self, session: object, inputs: frozenset[str], batch: list) -> list[TokenStates]:
        feeds = batch_feeds(batch, inputs)
        hidden = run_session(self.model, session, feeds)
        rows = []
        for r, e in enumerate(batch):
            n = len(e.ids)
            rows.append(TokenStates(hidden[r, :n].copy(), tuple(e.tokens[:n])))
        return rows


def _predicate(t: TokenStates) -> np.ndarray:
    """The mean state of the tokens after the first first-person word ([SEP] left
    out), or of all but [CLS] and [SEP]."""
    words, states = t.words[1:-1], t.states[1:-1]
    for i, w in enumerate(words):
        if w in _FIRST_PERSON and i + 1 < len(words):
            return np.asarray(states[i + 1 :].mean(axis=0))
    return np.asarray(states.mean(axis=0))


def general_words(texts_by_topic: Iterable[tuple[str, str]]) -> frozenset[str]:
    """Words of statements on at least ``GENERAL_TOPICS`` different topics."""
    topics: dict[str, set[str]] = defaultdict(set)
    for topic, text in texts_by_topic:
        for w in _WORD.findall(text.lower().replace("\u2019", "'")):
            topics[w].add(topic)
    return frozenset(w for w, ts in topics.items() if len(ts) >= GENERAL_TOPICS)


def _singular(word: str) -> str:
    """``word`` without a plural or third-person "s" ("hates": "hate")."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def mask_object(text: str, general: frozenset[str]) -> str:
    """``text`` with each run of words that are neither function words nor ``general``
    (and an article just before the run) replaced by "it"."""
    words = _WORD.findall(text.replace("\u2019", "'"))
    out: list[str] = []
    masking = False
    for w in words:
        low = w.lower()
        if low in STOP_WORDS or low in general or _singular(low) in general:
            out.append(w)
            masking = False
            continue
        if not masking:
            while out and out[-1].lower() in _ARTICLES:
                out.pop()
            out.append("it")
        masking = True
    return " ".join(out) + ("?" if text.rstrip().endswith("?") else ".")


def sentence_blocks(
    embedder: TokenEmbedder, texts: Sequence[str], general: frozenset[str]
) -> dict[str, np.ndarray]:
    """Every block of ``BLOCKS`` for each text (rows in order)."""
    states = embedder.token_states(texts)
    masked = embedder.embed_sync([mask_object(t, general) for t in texts])
    bank = embedder.embed_sync(list(BANK))
    return {
        "mean": np.vstack([_unit(s.states.mean(axis=0)) for s in states]),
        "max": np.vstack([_unit(s.states[1:-1].max(axis=0)) for s in states]),
        "predicate": np.vstack([_unit(_predicate(s)) for s in states]),
        "bank": masked @ bank.T,
        "masked": masked,
        "words": np.vstack([pooled_and_words(np.zeros(DIMENSION), t)[DIMENSION:] for t in texts]),
    }


def assemble(blocks: dict[str, np.ndarray], names: Sequence[str]) -> np.ndarray:
    """The named blocks side by side."""
    return np.hstack([blocks[n] for n in names]).astype(np.float32)
