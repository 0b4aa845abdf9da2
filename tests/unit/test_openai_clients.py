"""Both OpenAI-compatible clients check their arguments when built (no network)."""

from __future__ import annotations

from typing import Any

import pytest

from cognimem.errors import UsageError
from cognimem.providers import OpenAICompatibleEmbedder
from cognimem.providers.llm import OpenAICompatibleChat

URL = "http://127.0.0.1:1/v1"
CLIENTS = [OpenAICompatibleEmbedder, OpenAICompatibleChat]


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize(
    ("bad", "named"),
    [
        ({"max_retries": -1}, "max_retries >= 0"),
        ({"timeout_s": 0}, "timeout_s > 0"),
        ({"backoff_s": -0.1}, "backoff_s >= 0"),
    ],
)
def test_shared_arguments_are_checked_alike(
    client: type[Any], bad: dict[str, float], named: str
) -> None:
    with pytest.raises(UsageError, match=named):
        client("m", URL, **bad)


@pytest.mark.parametrize("client", CLIENTS)
def test_the_base_url_must_be_http(client: type[Any]) -> None:
    with pytest.raises(UsageError, match="http:// or https://"):
        client("m", "127.0.0.1:1/v1")


def test_each_client_checks_its_own_arguments() -> None:
    with pytest.raises(UsageError, match="batch_size >= 1"):
        OpenAICompatibleEmbedder("m", URL, batch_size=0)
    with pytest.raises(UsageError, match="max_output_tokens >= 1"):
        OpenAICompatibleChat("m", URL, max_output_tokens=0)
    assert OpenAICompatibleChat("m", URL + "/").base_url == URL
