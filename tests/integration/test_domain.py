"""The domain layer against a real domain database, SQLite and PostgreSQL: the mapping
checked against the live schema, mentions linked to rows, the domain step of a read,
its statement timeout, the ontology's edges and trust_domain conflicts. These run with
the ``STAFF`` row rules (every row to every user of the tenant); who sees which rows is
``test_domain_visibility.py``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from cognimem import Memory, Settings
from cognimem.api import create_app
from cognimem.domain.mapping import load_mapping
from cognimem.domain.source import DomainRef
from cognimem.domain.sql import SqlDomainSource
from cognimem.errors import DomainMappingError
from cognimem.models.knowledge import (
    AliasSource,
    ConflictStatus,
    ConflictStrategy,
    FactStatus,
)
from cognimem.providers.fakes import HashingEmbedder
from tests import domain_shop
from tests.domain_shop import Shop
from tests.doubles import issue_api_key
from tests.e2e.http_server import serving


@pytest.fixture
async def mem(shop: Shop) -> AsyncIterator[Memory]:
    settings = Settings(domain_mapping=shop.staff_mapping())
    async with Memory.open(shop.memory_url, settings=settings, embedder=HashingEmbedder()) as m:
        yield m


async def entity_named(mem: Memory, user: str, name: str):  # type: ignore[no-untyped-def]
    found = [e for e, _ in await mem.entities(user_id=user) if e.name == name]
    assert len(found) == 1, f"{name}: {found}"
    return found[0]


# -- the mapping against the live schema ----------------------------------------------
async def test_a_mapping_naming_a_missing_column_stops_the_open(shop: Shop) -> None:
    settings = Settings(domain_mapping=shop.mapping(email="phone"))
    memory = Memory.open(shop.memory_url, settings=settings, embedder=HashingEmbedder())
    with pytest.raises(DomainMappingError) as caught:
        await memory.start()
    err = caught.value
    assert err.details["table"] == "customers"
    assert err.details["column"] == "phone"
    assert err.details["entry"] == "entities.customer"
    assert "customers.phone" in err.message


async def test_a_mapping_naming_a_missing_table_stops_the_open(shop: Shop) -> None:
    settings = Settings(domain_mapping=shop.mapping(customers="clients"))
    memory = Memory.open(shop.memory_url, settings=settings, embedder=HashingEmbedder())
    with pytest.raises(DomainMappingError) as caught:
        await memory.start()
    assert caught.value.details["table"] == "clients"
    assert "column" not in caught.value.details


# -- linking -------------------------------------------------------------------------
async def test_a_mention_of_a_row_links_to_it_by_name_and_by_alias(mem: Memory) -> None:
    first = await mem.write("Bob Jones works at Initech.", user_id="c-1001")
    bob = await entity_named(mem, "c-1001", "Bob Jones")
    assert bob.external_ref == "customer:c-1002"
    assert bob.user_id is None  # the domain is the namespace's
    assert bob.properties["domain_type"] == "customer"
    assert bob.id in first.knowledge.entities_created
    (aliases,) = [a for e, a in await mem.entities(user_id="c-1001") if e.id == bob.id]
    assert {(a.alias, a.source) for a in aliases} >= {("bob jones", AliasSource.DOMAIN)}
    # another user's mention of the same row resolves to the same entity
    again = await mem.write("Bob Jones works at Initech.", user_id="c-1002")
    assert bob.id in again.knowledge.entities_resolved
    assert bob.id not in again.knowledge.entities_created
    # an alias column ("Ali") names Alice Smith's row
    await mem.write("Ali works at Globex.", user_id="c-1002")
    alice = await entity_named(mem, "c-1002", "Alice Smith")
    assert alice.external_ref == "customer:c-1001"
    facts = await mem.facts(user_id="c-1002")
    assert {f.subject_entity_id for f in facts if f.value == "Globex"} == {alice.id}


async def test_a_name_two_rows_share_is_left_unlinked(mem: Memory) -> None:
    result = await mem.write("Dana Reed works at Initech.", user_id="c-1001")
    assert "dana reed" in result.knowledge.entities_ambiguous
    names = [e.name for e, _ in await mem.entities(user_id="c-1001")]
    assert "Dana Reed" not in names


# -- the domain step of a read ---------------------------------------------------------
async def test_a_read_shows_the_rows_the_query_names_with_table_and_key(mem: Memory) -> None:
    await mem.write("Bob Jones works at Initech.", user_id="c-1001")
    packet = await mem.read("What does Bob Jones do?", user_id="c-1001")
    step = next(s for s in packet.steps if s.name == "domain")
    assert not step.timed_out
    assert step.error is None
    (entry,) = packet.sections.domain_facts
    assert (entry.table, entry.key, entry.name) == ("customers", "c-1002", "Bob Jones")
    assert entry.values == {"city": "Denver", "employer": "Initech", "email": "bob@example.com"}
    assert [(r.relation, r.table, r.key, r.inverse) for r in entry.related] == [
        ("placed_by", "orders", "5003", True)
    ]
    assert entry.related[0].values["status"] == "delivered"
    assert entry.entity_id is not None
    markdown = packet.to_markdown()
    assert "### Domain facts" in markdown
    assert "Bob Jones (customer, customers #c-1002): city Denver, employer Initech" in markdown


async def test_a_row_memory_never_mentioned_is_found_by_name(mem: Memory) -> None:
    packet = await mem.read("Is the Blue Kettle in stock?", user_id="c-1001")
    (entry,) = packet.sections.domain_facts
    assert (entry.table, entry.key, entry.values["stock"]) == ("products", "p-1", "12")
    assert entry.entity_id is None
    # related the other way: the orders that contain it, newest first
    assert [r.key for r in entry.related] == ["5003", "5001"]


async def test_a_first_person_read_shows_the_users_own_row(mem: Memory) -> None:
    packet = await mem.read("How are my orders doing?", user_id="c-1001")
    (entry,) = packet.sections.domain_facts
    assert entry.key == "c-1001"
    assert sorted(r.key for r in entry.related) == ["5001", "5002"]


async def test_a_query_naming_no_row_plans_no_domain_step_output(mem: Memory) -> None:
    packet = await mem.read("What is the weather like?", user_id="c-1001")
    assert packet.sections.domain_facts == []


async def test_a_slow_domain_query_times_out_and_the_read_still_answers(shop: Shop) -> None:
    # every read of slow_customers takes minutes: the 100 ms statement timeout ends it
    settings = Settings(
        domain_mapping=shop.staff_mapping(customers="slow_customers", timeout_ms=100)
    )
    async with Memory.open(shop.memory_url, settings=settings, embedder=HashingEmbedder()) as m:
        written = await m.write("Bob Jones works at Initech.", user_id="c-1001")
        assert any(d.startswith("domain linking:") for d in written.degraded)
        packet = await m.read("Where does Bob Jones work?", user_id="c-1001")
    step = next(s for s in packet.steps if s.name == "domain")
    assert step.timed_out
    assert "domain: timed out" in packet.degraded
    assert packet.sections.domain_facts == []
    assert any("Initech" in i.text for i in packet.items)


# -- conflicts -------------------------------------------------------------------------
async def test_a_fact_the_domain_contradicts_is_a_trust_domain_conflict(mem: Memory) -> None:
    result = await mem.write("Bob Jones works at Hooli.", user_id="c-1001")
    (conflict_id,) = result.knowledge.conflicts_opened
    (conflict,) = await mem.conflicts(user_id="c-1001", open_only=False)
    assert conflict.id == conflict_id
    assert conflict.strategy is ConflictStrategy.TRUST_DOMAIN
    assert conflict.status is ConflictStatus.RESOLVED
    assert conflict.winner_fact_id is None  # the domain won, not a memory
    assert "'Initech'" in conflict.note
    assert "'Hooli'" in conflict.note
    # the memory is kept as a claim, with its history
    (fact,) = [f for f in await mem.facts(user_id="c-1001") if f.value == "Hooli"]
    assert conflict.fact_ids == [fact.id]
    assert fact.status is FactStatus.ACTIVE
    history = await mem.history(fact.id)
    change = next(h for h in history if h.action == "conflict")
    assert change.after is not None
    assert change.after["domain"] == {
        "table": "customers",
        "key": "c-1002",
        "predicate": "employer",
        "value": "Initech",
    }
    # the domain wins in the packet: its value shows, the memory's fact does not
    packet = await mem.read("Who does Bob Jones work for?", user_id="c-1001")
    (entry,) = packet.sections.domain_facts
    assert [(o.fact_id, o.memory_value, o.domain_value) for o in entry.overrules] == [
        (fact.id, "Hooli", "Initech")
    ]
    assert fact.id not in {e.id for e in packet.sections.entries()}


async def test_a_fact_the_domain_agrees_with_opens_no_conflict(mem: Memory) -> None:
    result = await mem.write("Bob Jones works at Initech.", user_id="c-1001")
    assert result.knowledge.conflicts_opened == []
    assert await mem.conflicts(user_id="c-1001", open_only=False) == []


async def test_the_users_own_fact_is_checked_against_their_row(mem: Memory) -> None:
    await mem.write("I moved to Portland.", user_id="c-1001")
    (conflict,) = await mem.conflicts(user_id="c-1001", open_only=False)
    assert conflict.strategy is ConflictStrategy.TRUST_DOMAIN
    assert "'Seattle'" in conflict.note
    packet = await mem.read("Where do I live?", user_id="c-1001")
    (entry,) = packet.sections.domain_facts
    assert entry.values["city"] == "Seattle"
    assert [o.memory_value for o in entry.overrules] == ["Portland"]


# -- the ontology ----------------------------------------------------------------------
EMPLOYER_OF_CUSTOMERS = """
[ontology]
[[ontology.relations]]
name = "employer"
subjects = ["customer"]
objects = ["organization", "place", "other"]
"""


async def test_a_relation_the_ontology_forbids_is_not_a_graph_edge(shop: Shop) -> None:
    settings = Settings(domain_mapping=shop.staff_mapping(ontology=EMPLOYER_OF_CUSTOMERS))
    async with Memory.open(shop.memory_url, settings=settings, embedder=HashingEmbedder()) as m:
        await m.write("Bob Jones works at Initech.", user_id="c-1001")  # a customer: allowed
        await m.write("Carol Diaz works at Initech.", user_id="c-1001")  # not a customer
        bob = await entity_named(m, "c-1001", "Bob Jones")
        carol = await entity_named(m, "c-1001", "Carol Diaz")
        edges = await m.relations([bob.id, carol.id], user_id="c-1001")
        facts = await m.facts(user_id="c-1001")
    assert [(e.source_entity_id, e.relation) for e in edges] == [(bob.id, "employer")]
    # the fact itself is kept: only the edge is refused
    assert {f.subject_entity_id for f in facts if f.predicate == "employer"} == {bob.id, carol.id}


async def test_an_ontology_on_its_own_checks_edges_without_a_database(
    tmp_path: Path, db_url: str
) -> None:
    path = tmp_path / "ontology.toml"
    path.write_text('tenant = "default"\n[ontology]\nclosed = true\n', encoding="utf-8")
    settings = Settings(domain_mapping=path)
    async with Memory.open(db_url, settings=settings, embedder=HashingEmbedder()) as m:
        await m.write("Carol Diaz works at Initech.", user_id="u1")
        carol = await entity_named(m, "u1", "Carol Diaz")
        assert await m.relations([carol.id], user_id="u1") == []
        packet = await m.read("Where does Carol Diaz work?", user_id="u1")
    assert "domain" not in {s.name for s in packet.steps}  # no rows to look up
    # without the ontology the same words make the fact's edge
    async with Memory.open(
        f"sqlite:///{tmp_path / 'plain.db'}", embedder=HashingEmbedder()
    ) as plain:
        await plain.write("Carol Diaz works at Initech.", user_id="u1")
        carol = await entity_named(plain, "u1", "Carol Diaz")
        edges = await plain.relations([carol.id], user_id="u1")
        assert [e.relation for e in edges] == ["employer"]


# -- over HTTP -------------------------------------------------------------------------
def test_the_conflicts_api_and_the_read_over_http_show_the_domain(
    tmp_path: Path, db_url: str
) -> None:
    domain_url = domain_shop.create_sqlite(tmp_path / "shop.db")
    mapping = domain_shop.write_mapping(tmp_path, domain_url, rows=domain_shop.STAFF)
    settings = Settings(domain_mapping=mapping)
    memory = Memory.open(db_url, settings=settings, embedder=HashingEmbedder())
    headers = {"Authorization": f"Bearer {issue_api_key(db_url)}"}
    scope = {"user_id": "c-1001"}
    with (
        serving(create_app(memory)) as base,
        httpx.Client(base_url=base, headers=headers, timeout=60) as api,
    ):
        wrote = api.post(
            "/v1/memory/write", json={"content": "Bob Jones works at Hooli.", "scope": scope}
        )
        assert wrote.status_code == 200, wrote.text
        found = api.post("/v1/conflicts/query", json={"scope": scope, "open_only": False})
        assert found.status_code == 200, found.text
        (conflict,) = found.json()
        assert (conflict["strategy"], conflict["status"]) == ("trust_domain", "resolved")
        assert api.post("/v1/conflicts/query", json={"scope": scope}).json() == []
        read = api.post(
            "/v1/memory/read", json={"query": "Who does Bob Jones work for?", "scope": scope}
        )
        assert read.status_code == 200, read.text
        ready = api.get("/v1/ready")
        assert ready.status_code == 200, ready.text
        assert ready.json()["checks"]["domain"] == "ok"
    (entry,) = read.json()["sections"]["domain_facts"]
    assert (entry["table"], entry["key"], entry["values"]["employer"]) == (
        "customers",
        "c-1002",
        "Initech",
    )
    assert entry["overrules"][0]["fact_id"] == conflict["fact_ids"][0]


# -- the source on its own -------------------------------------------------------------
async def test_the_source_reads_rows_by_key_with_their_related_rows_both_ways(shop: Shop) -> None:
    source = SqlDomainSource(load_mapping(shop.staff_mapping()))
    await source.open()
    staff = "s-1"
    try:
        (order,) = await source.records([DomainRef("order", "5002")], viewer=staff)  # int key
        (customer,) = await source.records([DomainRef("customer", "c-1001")], viewer=staff)
        assert await source.rows([DomainRef("order", "9999")], viewer=staff) == []
        matched = await source.match_names(["so-5001", "ALI", "nobody"], viewer=staff)
    finally:
        await source.close()
    assert (order.row.table, order.row.name, order.row.values["status"]) == (
        "orders",
        "SO-5002",
        "backordered",
    )
    # forward: the order's foreign keys name its customer and its product
    assert sorted((r.relation, r.row.ref.external_ref, r.inverse) for r in order.related) == [
        ("contains", "product:p-2", False),
        ("placed_by", "customer:c-1001", False),
    ]
    # reverse: the orders whose foreign key names the customer, newest key first
    assert [(r.relation, r.row.ref.key, r.inverse) for r in customer.related] == [
        ("placed_by", "5002", True),
        ("placed_by", "5001", True),
    ]
    assert sorted(r.ref.external_ref for r in matched) == ["customer:c-1001", "order:5001"]
