"""``/v1/ready`` over real HTTP: each configured dependency is probed and reported; one
that does not answer makes the server not ready (503), and says which."""

from __future__ import annotations

import httpx

from cognimem import Memory, Settings
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm.fakes import FakeChatServer
from cognimem.providers.llm.openai import OpenAICompatibleChat
from tests.e2e.http_server import PATIENT, free_port, serving


def test_ready_with_the_embedded_default_and_a_queue(db_url: str) -> None:
    settings = Settings.model_validate({"ingest": {"mode": "async"}})
    memory = Memory.open(db_url, settings=settings, embedder=HashingEmbedder())
    with serving(create_app(memory)) as base:
        answer = httpx.get(f"{base}/v1/ready", timeout=PATIENT)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {
        "status": "ok",
        # the reranked preset's cross-encoder: installed here (the bge extra)
        "checks": {"store": "ok", "embedder": "ok", "queue": "ok", "cross_encoder": "ok"},
    }


def test_an_llm_that_answers_is_ready_and_one_that_does_not_is_not(db_url: str) -> None:
    with FakeChatServer() as chat_server:
        chat_server.reply("ok")
        llm = OpenAICompatibleChat("fake-chat", chat_server.base_url, timeout_s=2.0)
        memory = Memory.open(db_url, embedder=HashingEmbedder(), llm=llm)
        with serving(create_app(memory)) as base:
            answer = httpx.get(f"{base}/v1/ready", timeout=PATIENT)
        assert answer.status_code == 200, answer.text
        assert answer.json()["checks"]["llm"] == "ok"

    # nothing listens on this port: the LLM cannot be reached
    down = OpenAICompatibleChat(
        "fake-chat", f"http://127.0.0.1:{free_port()}/v1", timeout_s=1.0, max_retries=0
    )
    memory = Memory.open(db_url, embedder=HashingEmbedder(), llm=down)
    with serving(create_app(memory)) as base:
        answer = httpx.get(f"{base}/v1/ready", timeout=30)
        health = httpx.get(f"{base}/v1/health", timeout=PATIENT)
    assert answer.status_code == 503, answer.text
    body = answer.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["store"] == "ok"
    assert body["checks"]["llm"] == "error: ProviderUnavailable"
    assert health.status_code == 200  # alive, only not ready


def test_an_llm_that_answered_is_not_asked_again_for_a_while(db_url: str) -> None:
    with FakeChatServer() as chat_server:
        chat_server.fail_next(500)
        llm = OpenAICompatibleChat("fake-chat", chat_server.base_url, timeout_s=2.0, max_retries=0)
        memory = Memory.open(db_url, embedder=HashingEmbedder(), llm=llm)
        with serving(create_app(memory)) as base:
            answers = [httpx.get(f"{base}/v1/ready", timeout=30) for _ in range(3)]
        # failed, so asked again; answered, so the third probe trusts that answer
        assert [a.status_code for a in answers] == [503, 200, 200]
        assert [a.json()["checks"]["llm"] for a in answers] == [
            "error: ProviderUnavailable",
            "ok",
            "ok",
        ]
        assert len(chat_server.requests) == 2
