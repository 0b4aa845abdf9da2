"""Retrieval behaviour as data: a typed config with named presets."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cognimem.errors import InvalidInput
from cognimem.models.ranking import Cosine, Days, Fusion, RrfK, Share, Weight


class RerankWeights(BaseModel):
    """How much each signal adds to an item's final score (``recall/rerank.py``).

    ``relevance`` is the fused lexical + vector score (scaled to [0, 1]); the others are
    each in [0, 1] too. Chosen on the LoCoMo dev set (``benchmarks/tune_rerank.py``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    relevance: Weight = 1.0
    graph: Weight = 0.1
    fact: Weight = 0.3
    entity: Weight = 0.0
    # how much an item's event period answers the query's period or a "when" question
    # (recall/temporal.py); 0.2 picked on fold B of the LoCoMo rotation, held on its checks
    dated: Weight = 0.2
    # 0.05: with answer pairs on, both folds of the LoCoMo rotation pick it on their tune
    # conversations and it holds on their checks (0.7250 → 0.7272, 0.7555 → 0.7601;
    # temporal 0.858 → 0.868), 0.2 loses; cue → trigger recall unchanged (0.529)
    recency: Weight = 0.05
    importance: Weight = 0.0
    # the write gate's novelty (ingest/scoring.py); 0: measured on the LoCoMo rotation,
    # see docs/lifecycle.md (write gate)
    novelty: Weight = 0.0
    reinforcement: Weight = 0.0
    # 0: an item's confidence decays from when it was said, which on the LoCoMo rotation
    # is one more recency and costs at every weight tried (all five 0.7775 → 0.7759 /
    # 0.7726 / 0.7720 at 0.05 / 0.1 / 0.2, both folds' tune and check lower); a fact's
    # decayed confidence acts in the sections instead (models/fact_decay.py)
    confidence: Weight = 0.0
    # how often answers used an item when it was loaded (recall/citations.py, feedback);
    # 0.5 for an item no answer has weighed yet. LoCoMo's reads have no answers, so every
    # item is 0.5 there and the weight moves no item: frac@10 0.7775 at 0 and at 0.1,
    # every row of the rotation the same
    utility: Weight = 0.1
    # a reply to a candidate question, by that question's score (recall/conversation/pairs.py). 0.1:
    # the smallest weight better on both folds' check conversations of the LoCoMo
    # rotation (frac@10 0.7179 → 0.7250 and 0.7508 → 0.7555), no category lower;
    # 0.3 gains more but costs temporal (benchmarks/results/tune_rerank.md)
    answer: Weight = 0.1
    # a memory of the session a read names (``session_id`` without ``session_only``):
    # what was just said there ranks up over the user's other sessions, which are still
    # read. Not measured on LoCoMo (its reads name no session, so the signal is 0 on
    # every candidate there); 0.3 beside relevance's 1 puts a session's memory ahead of
    # an equally relevant one from elsewhere, and a memory without evidence for the
    # query is dropped wherever it was said
    session: Weight = 0.3


class HalfLives(BaseModel):
    """Days for a memory's recency signal to halve, by kind: stable constraints and
    identity barely decay, episodes do."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    episode: Days = 30.0
    summary: Days = 90.0
    preference: Days = 365.0
    fact: Days = 730.0
    procedure: Days = 365.0
    stable: Days = 3650.0  # constraints, mandates, guardrails
    confidence: Days = 180.0  # an item's confidence decays from when it was said


class RecallConfig(BaseModel):
    """How a read finds, ranks and packs candidates."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    lexical: bool = True
    vector: bool = True
    graph: bool = True  # personalized PageRank from the entities the query names
    fusion: Fusion = "weighted"
    # weights and depth chosen on the LoCoMo dev set (benchmarks/tune_fusion.py)
    lexical_weight: Weight = 0.6
    vector_weight: Weight = 0.4
    rrf_k: RrfK = 60
    # a decision-like request in the first or second person ("find me a place for
    # dinner") is fused with this share of the two weights on the vector list: what it
    # must respect (an allergy, a budget) rarely shares its words. 0.7: on the cue →
    # trigger benchmark in long conversations, tune half 0.446 → 0.454, check half
    # 0.394 → 0.409 (items 0.220 → 0.283); LoCoMo rotation unchanged (its questions are
    # about the speakers, in the third person); None keeps the weights as they are
    request_vector_share: Share | None = 0.7
    candidates: int = Field(default=100, ge=1, le=1000)
    step_timeout_s: float = Field(default=2.0, gt=0)
    budget_s: float = Field(default=4.0, gt=0)  # the whole plan, every group together
    # the sections: constraints, facts, mandates, summaries, procedures, conflicts (the
    # plain single-method presets leave them out, as baselines)
    sections: bool = True
    # "fast": ask the exact-key fact lookup and lexical search first and skip the
    # vector search when they found something
    skip_if_found: bool = False
    # a query that names a period ("last week", "in May") reads only that period
    time_filter: bool = True
    rerank: RerankWeights = Field(default_factory=RerankWeights)
    half_lives: HalfLives = Field(default_factory=HalfLives)
    # MMR: 1.0 ranks by score alone; lower trades score for novelty (token-set overlap)
    mmr_lambda: Share = 1.0
    # a memory said by the person the query asks about scores this much more, and a
    # query about two people ("X and Y") ranks each one's memories in turn
    # (recall/conversation/focus.py); 0 turns it off
    speaker_focus: Weight = 0.2
    # the vector search embeds a question about a named person without the name ("What
    # sports does Priya take up in winter?" → "What sports does take up in winter?"): the
    # person's own messages rarely say it, the replies addressing them do, and the
    # lexical search and the speaker focus carry who (recall/conversation/topic.py).
    # Changes what the vector search reads, so it is the preset's, not a ranking
    # override. LoCoMo dev five: frac@10 0.7775 → 0.7994, multi-hop 0.488 → 0.517,
    # open-domain 0.360 → 0.462, better on both folds' tune and check conversations
    dense_without_subject: bool = True
    # ranked memories scoring below this share of the best one are dropped, not padded in
    episode_floor: Share = 0.0
    # a ranked memory that shares no content word or domain with the query, is not the
    # evidence of a fact or graph hit, and whose embedding is below this cosine of the
    # query's has no evidence for it and is dropped (recall/conversation/evidence.py);
    # -1 keeps every memory. Cosine of the default local embedder (MiniLM): LoCoMo dev
    # conversations 26 and 30 are flat from 0.2 to 0.3 (checked on 41-43, benchmarks/results/
    # locomo_dev.md); the lowest of those keeps the most cues on benchmarks/cue_trigger.py
    # (0.3 / 0.25 / 0.2 / 0.15: 0.33 / 0.44 / 0.53 / 0.66 of cues) while unrelated
    # questions still find nothing; re-check it for another model
    min_similarity: Cosine = 0.2
    # a message that only asks ("Any ideas for dinner tonight?") or makes small talk
    # ("Thanks, that's great!") has no evidence of its own: it never takes a statement's
    # place in the items, and a question counts through the reply that follows it
    # (recall/conversation/evidence.py, text/speech.py). Off in the plain baselines
    drop_filler: bool = True
    # a "when" question brings in the turn before its best-ranked item
    # (recall/conversation/told_before.py): below a dated reply, the turn it answers
    # (the event is told there, the time in the reply); above an undated one, the turn
    # before it when that one dates something. LoCoMo rotation, temporal frac@10: fold A
    # tune 0.984 -> 1.0, check 0.879 -> 0.890; fold B check 0.972 -> 0.983 (MRR 0.786 ->
    # 0.802); no other category moves. Off in the plain baselines
    told_before: bool = True
    # a local cross-encoder (providers/onnx_models.py, the ``bge`` extra) rereads the
    # query with each of the best ``cross_encoder_top`` ranked memories; its probability
    # is blended into their scores with ``cross_encoder_weight`` (0 keeps the order, 1
    # orders them by it alone). On in ``reranked`` only: on LoCoMo dev it raises frac@10
    # on both folds' check conversations but multiplies a read's latency
    # (docs/benchmarks.md)
    cross_encoder: Literal["ms-marco-l12"] | None = None
    cross_encoder_top: int = Field(default=20, ge=1, le=100)
    # 0.2: on the LoCoMo rotation with speaker focus both folds' tune conversations pick
    # it among 0.1 / 0.2 / 0.3 (fold A 0.8068 / 0.8111 / 0.7981, fold B 0.7660 / 0.7682 /
    # 0.7645) and both checks gain over balanced (0.7632 -> 0.7798, 0.8039 -> 0.8101)
    cross_encoder_weight: Share = 0.2
    # word pieces per (query, memory) pair, [CLS] and [SEP] included; a longer pair is
    # cut from its longer side (the memory, nearly always), keeping the query whole. A
    # pair's CPU grows with its length, so this bounds what one long memory costs a
    # read. 128: LoCoMo dev's longest pair has 133 word pieces, 0.8% pass 96 (measured
    # with benchmarks/cross_encoder_cpu.py, which also gives the CPU at shorter caps)
    cross_encoder_max_tokens: int = Field(default=128, ge=8, le=512)


PLAIN = RerankWeights(dated=0.0, recency=0.0, answer=0.0, utility=0.0)


def _single_method(name: str, *, off: Literal["lexical", "vector"]) -> RecallConfig:
    """A plain single-method baseline, the search ``off`` turned off: no graph, no
    sections, no question → answer pairs, plain reranking, nothing a read's subject or
    filler words change."""
    return RecallConfig(
        name=name,
        **{off: False},
        graph=False,
        sections=False,
        rerank=PLAIN,
        speaker_focus=0.0,
        dense_without_subject=False,
        drop_filler=False,
        told_before=False,
    )


PRESETS: dict[str, RecallConfig] = {
    "balanced": RecallConfig(name="balanced"),
    # fewer, surer memories: a relevance floor and diversity
    "precise": RecallConfig(name="precise", episode_floor=0.35, mmr_lambda=0.7),
    # the cheapest steps first; the vector search only when they found nothing
    "fast": RecallConfig(name="fast", graph=False, skip_if_found=True, candidates=50),
    "lexical": _single_method("lexical", off="vector"),
    "vector": _single_method("vector", off="lexical"),
    "rrf": RecallConfig(name="rrf", fusion="rrf"),
    # balanced, then the local cross-encoder over the best 20 (needs the ``bge`` extra)
    "reranked": RecallConfig(name="reranked", cross_encoder="ms-marco-l12"),
}


def get_preset(
    name: str,
    *,
    step_timeout_s: float | None = None,
    budget_s: float | None = None,
    cross_encoder_max_tokens: int | None = None,
) -> RecallConfig:
    """The preset called ``name``. ``step_timeout_s`` and ``budget_s``, when given,
    replace its time limits (the operator's ``COGNIMEM_RECALL__STEP_TIMEOUT_S`` and
    ``__BUDGET_S``: a slow embedder or a busy machine needs longer than the presets'), and
    ``cross_encoder_max_tokens`` its cap on a cross-encoder pair's word pieces
    (``__CROSS_ENCODER_MAX_TOKENS``: the CPU a reranked read may spend on long memories)."""
    try:
        config = PRESETS[name]
    except KeyError:
        raise InvalidInput(
            f"unknown recall preset {name!r}; choose one of {', '.join(sorted(PRESETS))}",
            field="preset",
        ) from None
    limits = {
        "step_timeout_s": step_timeout_s,
        "budget_s": budget_s,
        "cross_encoder_max_tokens": cross_encoder_max_tokens,
    }
    given = {k: v for k, v in limits.items() if v is not None}
    return config.model_validate({**config.model_dump(), **given}) if given else config
