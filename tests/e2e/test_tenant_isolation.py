"""Tenant and user isolation, as a property over real HTTP: random tenants and users write
random memories, each carrying marker words of its owner, and each tenant writes one at
its organisation's level, one at its namespace's and one at an agent's; then every
read-like endpoint is called
with every tenant's key and every user scope (and a read made with the agent, a timed
read, the shared levels' listing, a read of each shared level alone). No answer may
contain a marker of another tenant — its users', its organisation's, its namespace's or
its agents' — and an answer for a user scope none of
another user (the shared levels of its own tenant it may)."""

from __future__ import annotations

import ssl
import string
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import count

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cognimem import Memory
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from tests.doubles import issue_api_key
from tests.e2e.http_server import PATIENT, serving

TEMPLATES = (
    "I really like {m} and my friend {M} does too",
    "We visited {M} last summer, it was lovely",
    "My favourite food is {m}",
    "Remember that I never eat {m}",
    "My sister {M} plays the cello",
)
_run = count()
# the servers here speak plain HTTP, but each httpx.Client builds a TLS context (the CA
# bundle parsed again: a third of this test's CPU when built per client); one serves all
TLS = ssl.create_default_context()


# the owners of a tenant's shared levels (not user ids: those never start with "@")
SHARED_LEVELS = {
    "@organisation": {"level": "organisation"},
    "@namespace": {"level": "namespace"},
    "@agent": {"agent_id": "helper"},
}


@dataclass
class Owner:
    tenant: str
    user: str  # a user id, or one of SHARED_LEVELS
    markers: set[str] = field(default_factory=set)
    item_ids: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('isolation') / 'memory.db'}"
    memory = Memory.open(url, embedder=HashingEmbedder())
    with serving(create_app(memory)) as base:
        yield base, url


marker_words = st.text(alphabet=string.ascii_lowercase, min_size=6, max_size=8)
world = st.lists(  # tenants → users → memories (template index per memory)
    st.lists(st.lists(st.integers(0, len(TEMPLATES) - 1), min_size=1, max_size=3), min_size=1,
             max_size=3),
    min_size=2,
    max_size=3,
)  # fmt: skip


def _letters(n: int) -> str:
    return string.ascii_lowercase[n % 26] * (1 + n // 26)


def _leaks(text: str, foreign: set[str]) -> set[str]:
    lowered = text.lower()
    return {m for m in foreign if m in lowered}


# 15 random worlds in all, run as three shards of five so parallel workers share them
# (one run of fifteen bounded the parallel suite's wall time); each shard draws its own
SHARDS = 3


@pytest.mark.parametrize("shard", range(SHARDS))
@settings(max_examples=15 // SHARDS, deadline=None, suppress_health_check=list(HealthCheck))
@given(shape=world, seed=marker_words)
def test_no_answer_crosses_a_tenant_or_a_user(
    server: tuple[str, str], shard: int, shape: list[list[list[int]]], seed: str
) -> None:
    base, url = server
    run = next(_run) * SHARDS + shard  # tenant names never repeat across shards
    owners: list[Owner] = []
    keys: dict[str, str] = {}
    for t, users in enumerate(shape):
        tenant = f"t{run}x{t}"
        keys[tenant] = issue_api_key(url, tenant)
        for u, memories in enumerate([*users, [0], [1], [2]]):
            # the same user ids recur in every tenant; the last two: the shared levels
            shared = list(SHARED_LEVELS)[u - len(users)] if u >= len(users) else None
            owner = Owner(tenant, shared or f"u{u}")
            with httpx.Client(
                base_url=base, headers=_auth(keys[tenant]), timeout=PATIENT, verify=TLS
            ) as api:
                for i, template in enumerate(memories):
                    # letters only (digits could look like PII to the redactor); unique
                    # per memory, so a marker found in an answer names its owner
                    marker = f"q{seed}" + "x".join(_letters(n) for n in (run, t, u, i))
                    owner.markers.add(marker)
                    text = TEMPLATES[template].format(m=marker, M=marker.capitalize())
                    where = SHARED_LEVELS.get(owner.user, {"user_id": owner.user})
                    answer = api.post("/v1/memory/write", json={"content": text, "scope": where})
                    assert answer.status_code == 200, answer.text
                    owner.item_ids += answer.json()["messages"][0]["item_ids"]
            owners.append(owner)

    every_id = [i for o in owners for i in o.item_ids]
    users = sorted({o.user for o in owners if o.user not in SHARED_LEVELS})
    for tenant, key in keys.items():
        mine = [o for o in owners if o.tenant == tenant]
        foreign_tenants = {m for o in owners if o.tenant != tenant for m in o.markers}
        with httpx.Client(base_url=base, headers=_auth(key), timeout=PATIENT, verify=TLS) as api:
            for scope_user in [None, *users]:
                foreign = set(foreign_tenants)
                if scope_user is not None:  # another user's; its tenant's shared levels not
                    others = [o for o in mine if o.user not in (scope_user, *SHARED_LEVELS)]
                    foreign |= {m for o in others for m in o.markers}
                for answer, query in _read_like(api, scope_user, owners):
                    assert answer.status_code == 200, answer.text
                    # a packet repeats its query, which may name anyone's marker
                    leaked = _leaks(answer.text.replace(query, ""), foreign)
                    assert not leaked, (answer.request.url, scope_user, leaked)
            for item_id in every_id:
                owner = next(o for o in owners if item_id in o.item_ids)
                for path in (f"/v1/memory/get/{item_id}", f"/v1/memory/history/{item_id}"):
                    answer = api.get(path)
                    if owner.tenant != tenant:
                        assert answer.status_code == 404, answer.text
                        assert not _leaks(answer.text, foreign_tenants)
                    else:
                        assert answer.status_code == 200, answer.text
                for scope_user in users:
                    answer = api.get(f"/v1/memory/get/{item_id}", params={"user_id": scope_user})
                    same = owner.tenant == tenant and owner.user == scope_user
                    assert answer.status_code == (200 if same else 404), answer.text


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _read_like(
    api: httpx.Client, user: str | None, owners: list[Owner]
) -> Iterator[tuple[httpx.Response, str]]:
    """Every read-like endpoint for one scope (every user's for ``None``), with the
    query each answer may repeat, with queries that name markers of several owners."""
    scope: dict[str, object] = {"all_users": True} if user is None else {"user_id": user}
    markers = [sorted(o.markers)[0] for o in owners]
    queries = ["what do I like to eat?", *markers[:3]]
    for query in queries:
        yield api.post("/v1/memory/read", json={"query": query, "scope": scope, "limit": 50}), query
        with_agent = {"query": query, "scope": {**scope, "agent_id": "helper"}, "limit": 50}
        yield api.post("/v1/memory/read", json=with_agent), query
        timed = {"query": query, "scope": scope, "as_of": "2100-01-01T00:00:00Z", "limit": 50}
        yield api.post("/v1/memory/read", json=timed), query
        markdown = {"query": query, "scope": scope, "format": "markdown"}
        yield api.post("/v1/memory/read", json=markdown), query
        dry_run = {"query": query, "scope": scope, "dry_run": True}
        yield api.post("/v1/memory/forget", json=dry_run), query
    first = queries[0]
    yield api.post("/v1/memory/read/stream", json={"query": first, "scope": scope}), first
    turn = {"user": {"content": first}, "scope": {**scope, "namespace": "probe"}}
    yield api.post("/v1/memory/turn", json=turn), first
    since = {"since": "2000-01-01T00:00:00Z", "scope": scope, "dry_run": True, "limit": 1000}
    yield api.post("/v1/memory/forget", json=since), first
    if user is None:  # each shared level read alone, and listed
        for level in ("organisation", "namespace"):
            alone = {"level": level}
            yield api.post("/v1/memory/read", json={"query": first, "scope": alone}), first
            yield api.post("/v1/facts/query", json={"scope": alone}), first
            yield api.post("/v1/memory/export", json={"scope": alone}), first
    for path, body in (
        ("/v1/facts/query", {"scope": scope, "include_history": True}),
        ("/v1/entities/query", {"scope": scope}),
        ("/v1/conflicts/query", {"scope": scope, "open_only": False}),
        ("/v1/sessions/query", {"scope": scope}),
        ("/v1/stats", {"scope": scope}),
        ("/v1/memory/export", {"scope": scope}),
        ("/v1/memory/query", {"scope": {**scope, "agent_id": "helper"}, "shared": True}),
        ("/v1/users/query", {}),
    ):
        yield api.post(path, json=body), first
