"""Who sees which rows of the domain database (docs/domain.md, "Who sees which rows"):
a mapping is one tenant's and another tenant's keys read none of it; inside the tenant
a user sees only the rows the entity types' row rules open (their own customers row and
orders; products to everyone), a people table without a rule shows nothing, and
neither the packet, its explain, nor the write path's links and conflicts give away a
row the caller may not read. On both memory stores, the shop's database beside each."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from cognimem import Memory, Settings
from cognimem.api import create_app
from cognimem.domain.mapping import load_mapping
from cognimem.domain.source import DomainRef
from cognimem.domain.sql import SqlDomainSource
from cognimem.models.knowledge import AliasSource, Entity
from cognimem.models.packets import ContextPacket
from cognimem.providers.fakes import HashingEmbedder
from tests import domain_shop
from tests.domain_shop import Shop
from tests.doubles import issue_api_key
from tests.e2e.http_server import serving

ALICE, BOB = "c-1001", "c-1002"
ASK_ALICE = "What is Alice Smith's email and city?"
# what Alice's customers row and orders hold, and nobody but Alice may read
ALICES_ROW = ("alice@example.com", "Seattle", "Globex", "c-1001", "backordered", "shipped")


def shows_none_of_alices_row(text: str) -> bool:
    return not any(value in text for value in ALICES_ROW)


def domain_keys(packet: ContextPacket) -> list[str]:
    return [e.id for e in packet.sections.domain_facts]


@pytest.fixture
async def mem(shop: Shop) -> AsyncIterator[Memory]:
    """The shop's customers as the scope's users (``OWN_ROWS``), tenant "default"."""
    settings = Settings(domain_mapping=shop.mapping())
    async with Memory.open(shop.memory_url, settings=settings, embedder=HashingEmbedder()) as m:
        yield m


async def linked(mem: Memory, user: str) -> list[Entity]:
    """The entities ``user`` sees that are linked to a domain row."""
    return [e for e, _ in await mem.entities(user_id=user) if e.external_ref]


# -- the tenant boundary: the issue's reproduction, over HTTP -----------------------------
def test_another_tenants_key_reads_and_links_nothing_of_a_tenants_mapping(shop: Shop) -> None:
    # the shop's staff (tenant "shop") see every row; tenant "db" never wrote anything
    mapping = shop.mapping(tenant="shop", rows=domain_shop.STAFF)
    memory = Memory.open(
        shop.memory_url, settings=Settings(domain_mapping=mapping), embedder=HashingEmbedder()
    )
    keys = {t: issue_api_key(shop.memory_url, t) for t in ("db", "shop")}
    body = {"query": ASK_ALICE, "scope": {"user_id": "zz"}, "explain": True}
    with serving(create_app(memory)) as base:

        def client(tenant: str) -> httpx.Client:
            auth = {"Authorization": f"Bearer {keys[tenant]}"}
            return httpx.Client(base_url=base, headers=auth, timeout=60)

        with client("db") as db, client("shop") as staff:
            other = db.post("/v1/memory/read", json=body)
            wrote = db.post(
                "/v1/memory/write",
                json={"content": "Alice Smith works at Hooli.", "scope": {"user_id": "zz"}},
            )
            conflicts = db.post(
                "/v1/conflicts/query", json={"scope": {"user_id": "zz"}, "open_only": False}
            )
            own = staff.post("/v1/memory/read", json=body)
    assert other.status_code == 200, other.text
    assert other.json()["sections"]["domain_facts"] == []
    assert "domain" not in {s["name"] for s in other.json()["steps"]}  # no domain at all
    assert shows_none_of_alices_row(other.text)
    # a mention by tenant db links to no row and is checked against none
    assert wrote.status_code == 200, wrote.text
    assert conflicts.json() == []
    assert shows_none_of_alices_row(wrote.text + conflicts.text)
    # the mapping's own tenant reads the row: the boundary is the tenant
    assert own.status_code == 200, own.text
    (entry,) = own.json()["sections"]["domain_facts"]
    assert (entry["key"], entry["values"]["email"]) == (ALICE, "alice@example.com")


# -- the user boundary inside a tenant ---------------------------------------------------
async def test_a_customer_reads_no_other_customers_row_nor_in_explain(mem: Memory) -> None:
    for query in (ASK_ALICE, "Where does Ali live?", "What is Alice Smith's employer?"):
        packet = await mem.read(query, user_id=BOB, explain=True)
        assert packet.sections.domain_facts == [], query
        assert shows_none_of_alices_row(packet.model_dump_json()), query
        assert shows_none_of_alices_row(packet.to_markdown()), query


async def test_a_user_reads_their_own_row_and_only_their_orders(mem: Memory) -> None:
    packet = await mem.read("What is my email, and how are my orders?", user_id=ALICE)
    (entry,) = packet.sections.domain_facts
    assert (entry.key, entry.values["email"]) == (ALICE, "alice@example.com")
    assert sorted(r.key for r in entry.related) == ["5001", "5002"]
    # by name too
    assert domain_keys(await mem.read(ASK_ALICE, user_id=ALICE)) == ["customer:c-1001"]


async def test_shared_reference_rows_stay_readable_with_only_the_users_related_rows(
    mem: Memory,
) -> None:
    for user, orders in ((BOB, ["5003"]), (ALICE, ["5001"]), ("zz", [])):
        packet = await mem.read("Is the Blue Kettle in stock?", user_id=user)
        (entry,) = packet.sections.domain_facts
        assert (entry.key, entry.values["stock"]) == ("p-1", "12")
        assert [r.key for r in entry.related] == orders, user


async def test_a_mention_of_a_row_the_writer_may_not_see_stays_unlinked(mem: Memory) -> None:
    result = await mem.write("Alice Smith works at Hooli.", user_id=BOB)
    # no link (which would give Bob her aliases and key), no check against her row
    assert result.knowledge.conflicts_opened == []
    assert await mem.conflicts(user_id=BOB, open_only=False) == []
    assert await linked(mem, BOB) == []
    names = {a.alias for _, aliases in await mem.entities(user_id=BOB) for a in aliases}
    assert "ali" not in names
    packet = await mem.read("Where does Alice Smith work?", user_id=BOB, explain=True)
    assert packet.sections.domain_facts == []
    assert shows_none_of_alices_row(packet.model_dump_json())


async def test_a_users_own_row_links_to_an_entity_only_they_see(mem: Memory) -> None:
    await mem.write("I moved to Portland.", user_id=ALICE)  # checked against her own row
    (conflict,) = await mem.conflicts(user_id=ALICE, open_only=False)
    assert "'Seattle'" in conflict.note
    await mem.write("Ali works at Globex.", user_id=ALICE)  # her nickname column
    (alice,) = await linked(mem, ALICE)
    assert (alice.external_ref, alice.user_id, alice.name) == (
        "customer:c-1001",
        ALICE,
        "Alice Smith",
    )
    (aliases,) = [a for e, a in await mem.entities(user_id=ALICE) if e.id == alice.id]
    assert {(a.alias, a.user_id, a.source) for a in aliases} >= {
        ("ali", ALICE, AliasSource.DOMAIN),
        ("alice smith", ALICE, AliasSource.DOMAIN),
    }
    # Bob neither sees her entity nor resolves "Ali" to it
    await mem.write("Ali works at Hooli.", user_id=BOB)
    assert alice.id not in {e.id for e, _ in await mem.entities(user_id=BOB)}
    assert await linked(mem, BOB) == []
    assert (await mem.read("Where does Ali work?", user_id=BOB)).sections.domain_facts == []


async def test_a_people_table_without_a_row_rule_shows_no_row(
    shop: Shop, caplog: pytest.LogCaptureFixture
) -> None:
    # no [user] link, and only products given a rule
    mapping = shop.mapping(rows={"product": domain_shop.OWN_ROWS["product"]}, user=False)
    settings = Settings(domain_mapping=mapping)
    with caplog.at_level(logging.INFO, logger="cognimem.domain.layer"):
        async with Memory.open(shop.memory_url, settings=settings, embedder=HashingEmbedder()) as m:
            written = await m.write("Alice Smith works at Hooli.", user_id=ALICE)
            asked = await m.read(ASK_ALICE, user_id=ALICE)
            kettle = await m.read("Is the Blue Kettle in stock?", user_id=ALICE)
    assert written.knowledge.conflicts_opened == []
    assert asked.sections.domain_facts == []
    (entry,) = kettle.sections.domain_facts
    assert (entry.key, entry.related) == ("p-1", [])  # orders: no rule, no row
    # the start-up statement says so
    (said,) = [r.getMessage() for r in caplog.records if "serves tenant" in r.getMessage()]
    assert "customer rows: no user (no row rule: the default)" in said
    assert "order rows: no user (no row rule: the default)" in said
    assert "product rows: every user of the tenant" in said


async def test_the_source_never_reads_a_row_its_viewer_may_not_see(shop: Shop) -> None:
    source = SqlDomainSource(load_mapping(shop.mapping()))
    await source.open()
    try:
        named = ["so-5002", "alice smith", "ali", "blue kettle"]
        by_bob = await source.match_names(named, viewer=BOB)
        by_alice = await source.match_names(named, viewer=ALICE)
        by_nobody = await source.match_names(named, viewer=None)
        hers = [DomainRef("customer", ALICE), DomainRef("order", "5002")]
        bob_by_ref = await source.rows(hers, viewer=BOB)
        alice_by_ref = await source.rows(hers, viewer=ALICE)
        (kettle,) = await source.records([DomainRef("product", "p-1")], viewer=BOB)
        own = [await source.user_row(viewer=v) for v in (ALICE, "zz", None)]
    finally:
        await source.close()
    assert [r.ref.external_ref for r in by_bob] == ["product:p-1"]
    assert sorted(r.ref.external_ref for r in by_alice) == [
        "customer:c-1001",
        "order:5002",
        "product:p-1",
    ]
    assert [r.ref.external_ref for r in by_nobody] == ["product:p-1"]
    assert bob_by_ref == []
    assert sorted(r.ref.key for r in alice_by_ref) == ["5002", ALICE]
    assert [(r.relation, r.row.ref.key) for r in kettle.related] == [("contains", "5003")]
    assert [None if r is None else r.ref.key for r in own] == [ALICE, None, None]


# -- a mapping per tenant ------------------------------------------------------------------
async def test_a_folder_of_mappings_gives_each_tenant_its_own_and_others_none(
    shop: Shop, tmp_path: Path
) -> None:
    folder = tmp_path / "mappings"
    folder.mkdir()
    domain_shop.write_mapping(
        folder, shop.domain_url, file="shop.toml", tenant="shop", rows=domain_shop.STAFF
    )
    domain_shop.write_mapping(folder, shop.domain_url, file="mall.toml", tenant="mall")
    settings = Settings(domain_mapping=folder)
    async with Memory.open(shop.memory_url, settings=settings, embedder=HashingEmbedder()) as m:

        async def ask(tenant: str, user: str) -> list[str]:
            scope = {"tenant_id": tenant, "user_id": user}
            return domain_keys(await m.read(ASK_ALICE, scope=scope))

        assert await ask("shop", "zz") == ["customer:c-1001"]  # staff: every row
        assert await ask("mall", "zz") == []  # own rows: zz has none
        assert await ask("mall", ALICE) == ["customer:c-1001"]
        assert await ask("db", ALICE) == []  # no mapping: no domain


async def test_a_server_wide_mapping_serves_every_tenant_and_says_so_at_start_up(
    shop: Shop, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(domain_mapping=shop.mapping(tenant="*"))
    with caplog.at_level(logging.INFO, logger="cognimem.domain.layer"):
        async with Memory.open(shop.memory_url, settings=settings, embedder=HashingEmbedder()) as m:
            scope = {"tenant_id": "db", "user_id": ALICE}
            packet = await m.read(ASK_ALICE, scope=scope)
    assert domain_keys(packet) == ["customer:c-1001"]
    (said,) = [r for r in caplog.records if "serves every tenant" in r.getMessage()]
    assert said.levelno == logging.WARNING
    assert "a single-tenant deployment only" in said.getMessage()
