"""Ranking overrides on a read (``ranking``): through the real app on both backends, over
the settings' ``recall.ranking``, and refused with a 422 naming the field when bad."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from cognimem import AsyncMemoryClient, InvalidInput, Memory, Settings
from cognimem.api import create_app
from cognimem.config import RecallSettings
from cognimem.providers.fakes import HashingEmbedder
from cognimem.recall.overrides import RankingOverrides, RerankOverrides
from tests.doubles import new_api_key

BASE = "http://cognimem.test"
DAY = timedelta(days=1)
DOG_PARK = [
    "I walk my dog Rex every morning in the park",
    "My dog Rex loves the park",
    "The park near my flat has a dog pond",
    "I bought a new bike",
]


@pytest.fixture
async def api(memory: Memory) -> AsyncIterator[httpx.AsyncClient]:
    """The real app in-process, with a key of the default tenant, on ``memory``'s backend;
    three memories about a dog in a park and one about a bike."""
    await memory.write_batch(DOG_PARK, user_id="u")
    key = await new_api_key(memory.store)
    transport = httpx.ASGITransport(app=create_app(memory))
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(transport=transport, base_url=BASE, headers=headers) as client:
        yield client


async def read(api: httpx.AsyncClient, **options: Any) -> dict[str, Any]:
    body = {"query": "dog park", "scope": {"user_id": "u"}, "explain": True, **options}
    answer = await api.post("/v1/memory/read", json=body)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


async def test_a_reads_ranking_changes_its_preset_and_explain_shows_the_result(
    api: httpx.AsyncClient,
) -> None:
    plain = await read(api)
    assert len(plain["items"]) == 3  # the three about the dog and the park
    assert plain["recall_config"]["episode_floor"] == 0.0
    # a floor at the best score keeps only the best memory
    ranking = {"episode_floor": 1.0, "rerank": {"graph": 0.25}, "mmr_lambda": 0.8}
    floored = await read(api, ranking=ranking)
    assert [i["id"] for i in floored["items"]] == [plain["items"][0]["id"]]
    config = floored["recall_config"]
    assert (config["episode_floor"], config["mmr_lambda"]) == (1.0, 0.8)
    # a nested group changes only the fields it names; the preset's name stays
    assert config["rerank"] == {**plain["recall_config"]["rerank"], "graph": 0.25}
    assert (config["name"], floored["preset"]) == ("balanced", "balanced")
    # over another preset: its own fields stay (precise's MMR), the override applies
    precise = await read(api, preset="precise", ranking={"episode_floor": 1.0})
    assert (precise["recall_config"]["mmr_lambda"], precise["recall_config"]["episode_floor"]) == (
        0.7,
        1.0,
    )
    # without explain the packet carries no config
    answer = await api.post(
        "/v1/memory/read", json={"query": "dog park", "scope": {"user_id": "u"}, "ranking": ranking}
    )
    assert answer.json()["recall_config"] is None
    assert len(answer.json()["items"]) == 1


async def test_a_turns_ranking_applies_to_its_read(api: httpx.AsyncClient) -> None:
    body = {"user": {"content": "dog park"}, "scope": {"user_id": "u"}}
    plain = await api.post("/v1/memory/turn", json=body)
    floored = await api.post("/v1/memory/turn", json={**body, "ranking": {"episode_floor": 1.0}})
    assert plain.status_code == floored.status_code == 200, floored.text
    assert len(plain.json()["packet"]["items"]) == 3
    assert len(floored.json()["packet"]["items"]) == 1


@pytest.mark.parametrize(
    ("ranking", "field"),
    [
        pytest.param({"rerank": {"graph": -1}}, "ranking.rerank.graph", id="negative-weight"),
        pytest.param({"rerank": {"graph": 1e300}}, "ranking.rerank.graph", id="huge-weight"),
        pytest.param({"mmr_lambda": 1.5}, "ranking.mmr_lambda", id="share-over-one"),
        pytest.param({"mmr_lambda": "0.5"}, "ranking.mmr_lambda", id="number-as-text"),
        pytest.param({"episode_floor": True}, "ranking.episode_floor", id="boolean"),
        pytest.param({"half_lives": {"episode": 0}}, "ranking.half_lives.episode", id="zero-days"),
        pytest.param({"fusion": "sum"}, "ranking.fusion", id="unknown-fusion"),
        pytest.param({"rerank": {"colour": 1}}, "ranking.rerank.colour", id="unknown-signal"),
        # which steps run and how deep they search are the preset's and the operator's
        pytest.param({"candidates": 500}, "ranking.candidates", id="not-exposed-depth"),
        pytest.param({"vector": False}, "ranking.vector", id="not-exposed-step"),
        pytest.param({"rerank": None}, "ranking.rerank", id="null-group"),
        pytest.param([0.2], "ranking", id="not-an-object"),
    ],
)
async def test_a_bad_ranking_is_a_422_naming_the_field(
    api: httpx.AsyncClient, ranking: Any, field: str
) -> None:
    for path, body in (
        ("/v1/memory/read", {"query": "dog park"}),
        ("/v1/memory/read/stream", {"query": "dog park"}),
        ("/v1/memory/turn", {"user": {"content": "dog park"}}),
    ):
        answer = await api.post(path, json={**body, "scope": {"user_id": "u"}, "ranking": ranking})
        assert answer.status_code == 422, (path, answer.text)
        error = answer.json()["error"]
        assert (error["type"], error["details"]["field"]) == ("InvalidInput", field), path
        assert field in error["message"]
    stats = await api.post("/v1/stats", json={"scope": {"user_id": "u"}})
    assert stats.json()["items"] == {"active": len(DOG_PARK)}  # refused turns stored nothing


async def test_the_sdk_sends_overrides_and_gets_the_servers_refusal(memory: Memory) -> None:
    await memory.write_batch(DOG_PARK, user_id="u")
    key = await new_api_key(memory.store)
    transport = httpx.ASGITransport(app=create_app(memory))
    async with AsyncMemoryClient(BASE, transport=transport, api_key=key) as sdk:
        model = RankingOverrides(episode_floor=1.0, rerank=RerankOverrides(fact=0.5))
        packet = await sdk.read("dog park", user_id="u", ranking=model, explain=True)
        assert len(packet.items) == 1
        assert packet.recall_config is not None
        assert packet.recall_config["rerank"]["fact"] == 0.5
        turn = await sdk.turn("dog park", user_id="u", ranking={"episode_floor": 1.0})
        assert len(turn.packet.items) == 1
        with pytest.raises(InvalidInput) as refused:
            await sdk.read("dog park", user_id="u", ranking={"rerank": {"graph": -1}})
    assert refused.value.field == "ranking.rerank.graph"


async def test_the_settings_ranking_is_merged_under_the_reads(memory_url: str) -> None:
    settings = Settings(
        recall=RecallSettings(
            ranking=RankingOverrides(episode_floor=1.0, rerank=RerankOverrides(graph=0.5))
        )
    )
    async with Memory.open(memory_url, settings=settings, embedder=HashingEmbedder()) as mem:
        await mem.write_batch(DOG_PARK, user_id="u")
        configured = await mem.read("dog park", user_id="u", explain=True)
        assert len(configured.items) == 1
        assert configured.recall_config is not None
        assert configured.recall_config["rerank"]["graph"] == 0.5
        # the read's own override wins for the fields it sets; the others stay the settings'
        mine = await mem.read(
            "dog park",
            user_id="u",
            ranking={"episode_floor": 0.0, "rerank": {"fact": 0.2}},
            explain=True,
        )
        assert len(mine.items) == 3
        assert mine.recall_config is not None
        assert (mine.recall_config["rerank"]["graph"], mine.recall_config["rerank"]["fact"]) == (
            0.5,
            0.2,
        )
        with pytest.raises(InvalidInput) as refused:
            await mem.read("dog park", user_id="u", ranking={"mmr_lambda": 2})
    assert refused.value.field == "ranking.mmr_lambda"


async def test_a_reply_is_ranked_up_by_the_question_it_answers(memory: Memory) -> None:
    t0 = datetime(2024, 5, 3, 16, 0, tzinfo=UTC)
    said = [
        ("Ann", "What did you bake for the school fair?", 0),
        ("Bo", "A lemon tart with a crumbly base", 1),
        ("Bo", "Our neighbours painted their fence green", 90),
    ]
    written = await memory.write_batch(
        [{"content": c, "name": n, "occurred_at": t0 + timedelta(minutes=m)} for n, c, m in said],
        user_id="u",
    )
    (reply_id,) = written.messages[1].item_ids

    async def reply_of(**options: Any) -> tuple[float, dict[str, float]]:
        packet = await memory.read(
            "the school fair bake", user_id="u", reference_time=t0 + DAY, explain=True, **options
        )
        assert packet.explain is not None
        (reply,) = [e for e in packet.explain if e.id == reply_id]
        return reply.score, reply.signals

    paired, signals = await reply_of()
    unpaired, plain = await reply_of(ranking={"rerank": {"answer": 0.0}})
    assert signals["answer"] > 0  # the question is a candidate, just before, by Ann
    assert paired == pytest.approx(unpaired + 0.1 * signals["answer"], abs=1e-4)
    assert "answer" not in plain
    _, lexical = await reply_of(preset="lexical")  # the plain baselines pair nothing
    assert "answer" not in lexical


async def test_the_default_ranking_prefers_the_more_recent_of_two_memories(
    memory: Memory,
) -> None:
    now = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
    written = await memory.write_batch(
        [
            {"content": "We went kayaking on the lake", "occurred_at": now - 200 * DAY},
            {"content": "We went kayaking on the river", "occurred_at": now - 2 * DAY},
        ],
        user_id="u",
    )
    old_id, new_id = (m.item_ids[0] for m in written.messages)

    async def scores(**options: Any) -> dict[str, tuple[float, float]]:
        packet = await memory.read(
            "kayaking", user_id="u", reference_time=now, explain=True, **options
        )
        assert packet.explain is not None
        return {e.id: (e.score, e.signals["recency"]) for e in packet.explain if e.type == "item"}

    default, without = await scores(), await scores(ranking={"rerank": {"recency": 0.0}})
    assert default[new_id][1] > default[old_id][1]  # episodes halve every 30 days
    for item_id in (old_id, new_id):
        score, recency = default[item_id]
        assert score == pytest.approx(without[item_id][0] + 0.05 * recency, abs=1e-4)


async def test_explain_shows_a_personal_requests_fusion_weights(api: httpx.AsyncClient) -> None:
    plain = await read(api)
    assert (plain["recall_config"]["lexical_weight"], plain["recall_config"]["vector_weight"]) == (
        0.6,
        0.4,
    )
    request = await read(api, query="Can you recommend a park for my dog?")
    config = request["recall_config"]
    assert config["vector_weight"] == pytest.approx(0.7)  # request_vector_share of the sum
    assert config["lexical_weight"] == pytest.approx(0.3)
