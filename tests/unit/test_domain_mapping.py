"""The domain mapping file, the ontology's checks, value agreement and the domain step's
place in the plan (pure: no database)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from cognimem.domain.agreement import disagreements, same_value
from cognimem.domain.layer import Domain, Domains
from cognimem.domain.mapping import RowRule, Visibility, load_mapping
from cognimem.domain.ontology import allows, type_of
from cognimem.domain.source import DomainRef, DomainRow
from cognimem.errors import DomainMappingError, UsageError
from cognimem.models import Scope
from cognimem.models.knowledge import Entity, EntityType, Fact, FactCategory
from cognimem.models.packets import DomainFactEntry, DomainRelated, Overruled, domain_line
from cognimem.recall.analyze import analyze
from cognimem.recall.plan import StepKind, make_plan
from cognimem.recall.presets import get_preset

NOW = datetime(2026, 1, 1, tzinfo=UTC)
SHOP = """
tenant = "acme"

[database]
url = "sqlite:///shop.db"

[entities.customer]
table = "customers"
key = "id"
name = "name"
aliases = ["nickname"]
kind = "person"
facts = { city = "city" }

[entities.order]
table = "orders"
key = "id"
name = "code"
facts = { status = "status" }

[[relations]]
name = "placed_by"
subject = "order"
object = "customer"
foreign_key = "customer_id"

[ontology]
[[ontology.relations]]
name = "employer"
subjects = ["customer", "person"]
objects = ["organization"]
"""


def write(tmp_path: Path, text: str, name: str = "mapping.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_mapping_reads_entities_relations_and_the_ontology(tmp_path: Path) -> None:
    m = load_mapping(write(tmp_path, SHOP))
    assert m.database is not None
    # a relative sqlite URL is read from beside the mapping file
    assert m.database.url == f"sqlite:///{(tmp_path / 'shop.db').resolve()}"
    customer = m.entity("customer")
    assert (customer.table, customer.key, customer.name_column) == ("customers", "id", "name")
    assert customer.alias_columns == ("nickname",)
    assert customer.kind is EntityType.PERSON
    assert m.entity("order").kind is EntityType.OTHER
    assert m.predicates["customer"] == frozenset({"city"})
    # a foreign key is a relation type of the ontology too
    assert m.relation_types["placed_by"].subjects == frozenset({"order"})
    assert m.relation_types["employer"].objects == frozenset({"organization"})


@pytest.mark.parametrize(
    ("text", "entry", "words"),
    [
        (
            "tenant = 'a'\n[entities.customer]\ntable = 'c'\nkey = 'id'\nname = 'n'\n",
            "database",
            "[database]",
        ),
        (SHOP + "\n[unknown]\n", "unknown", "unknown key 'unknown'"),
        (SHOP.replace('key = "id"\nname = "code"', 'key = "id"'), "entities.order.name", "name"),
        (SHOP.replace('subject = "order"', 'subject = "invoice"'), "relations[0]", "'invoice'"),
        (
            SHOP.replace('objects = ["organization"]', 'objects = ["company"]'),
            "ontology.relations[0]",
            "'company'",
        ),
        (SHOP.replace('kind = "person"', 'kind = "human"'), "entities.customer.kind", "human"),
        (
            SHOP.replace('table = "customers"', 'table = "customers; drop"'),
            "entities.customer.table",
            "not a table",
        ),
        ('tenant = "a"\n[entities.person]\n', "entities.person", "built-in kind"),
        ('tenant = "a"\n[database]\nurl = "mysql://x"\n[entities.c]\n', "database.url", "mysql"),
        # whose mapping it is: said, and a tenant id (or "*")
        (SHOP.replace('tenant = "acme"', ""), "tenant", 'tenant = "*"'),
        (SHOP.replace('tenant = "acme"', 'tenant = "a b"'), "tenant", "not a tenant id"),
        # the row rules
        (
            SHOP.replace('kind = "person"', 'kind = "person"\nvisibility = "everyone"'),
            "entities.customer.visibility",
            "'everyone'",
        ),
        (
            SHOP.replace('kind = "person"', 'kind = "person"\nvisibility = "user"'),
            "entities.customer.user_column",
            "needs user_column",
        ),
        (
            SHOP.replace(
                'kind = "person"', 'kind = "person"\nvisibility = "tenant"\nuser_column = "id"'
            ),
            "entities.customer.user_column",
            "'tenant'",
        ),
        (
            SHOP.replace('kind = "person"', 'kind = "person"\nuser_column = "id; drop"'),
            "entities.customer.user_column",
            "not a table or column",
        ),
    ],
)
def test_a_bad_mapping_names_the_entry_to_fix(
    tmp_path: Path, text: str, entry: str, words: str
) -> None:
    with pytest.raises(DomainMappingError) as caught:
        load_mapping(write(tmp_path, text))
    assert caught.value.details["entry"] == entry
    assert words in caught.value.message
    assert str(tmp_path / "mapping.toml") in caught.value.message
    assert isinstance(caught.value, UsageError)


def test_a_type_without_a_row_rule_shows_no_row_and_the_user_type_its_own(
    tmp_path: Path,
) -> None:
    m = load_mapping(write(tmp_path, SHOP))
    assert m.tenant == "acme"
    # no rule: nobody sees a row, people or not
    assert m.entity("customer").rows == RowRule(Visibility.NONE, stated=False)
    assert m.entity("order").rows == RowRule(Visibility.NONE, stated=False)
    said = SHOP.replace('kind = "person"', 'kind = "person"\nuser_column = "id"').replace(
        'name = "code"', 'name = "code"\nvisibility = "tenant"'
    )
    m = load_mapping(write(tmp_path, said))
    assert m.entity("customer").rows == RowRule(Visibility.USER, "id")
    assert m.entity("order").rows == RowRule(Visibility.TENANT)
    # a [user] link opens each user's own row of its type, and no other
    linked = load_mapping(write(tmp_path, SHOP + '\n[user]\nentity = "customer"\n'))
    assert linked.entity("customer").rows == RowRule(Visibility.USER, "id", stated=False)
    column = SHOP + '\n[user]\nentity = "customer"\ncolumn = "email"\n'
    assert load_mapping(write(tmp_path, column)).entity("customer").rows.user_column == "email"
    closed = SHOP.replace('kind = "person"', 'kind = "person"\nvisibility = "none"')
    closed += '\n[user]\nentity = "customer"\n'
    assert load_mapping(write(tmp_path, closed)).entity("customer").rows == RowRule()


def test_the_start_up_statement_says_whose_mapping_and_who_sees_which_rows(
    tmp_path: Path,
) -> None:
    text = SHOP.replace('name = "code"', 'name = "code"\nuser_column = "customer_id"')
    said = load_mapping(write(tmp_path, text)).describe()
    assert "serves tenant 'acme' only" in said
    assert "customer rows: no user (no row rule: the default)" in said
    assert "order rows: each user the rows where orders.customer_id = their user_id" in said
    wide = load_mapping(write(tmp_path, text.replace('"acme"', '"*"'))).describe()
    assert "serves every tenant (server-wide: a single-tenant deployment only)" in wide


def ontology_of(tmp_path: Path, tenant: str, name: str) -> Domain:
    return Domain.from_file(write(tmp_path, f'tenant = "{tenant}"\n[ontology]\n', name))


def test_each_tenant_has_its_own_mapping_and_another_tenant_none(tmp_path: Path) -> None:
    a, b = ontology_of(tmp_path, "a", "a.toml"), ontology_of(tmp_path, "b", "b.toml")
    domains = Domains([a, b])
    assert domains.for_tenant("a") is a
    assert domains.for_tenant("b") is b
    assert domains.for_tenant("c") is None
    wide = ontology_of(tmp_path, "*", "wide.toml")
    assert Domains([wide]).for_tenant("c") is wide
    # a folder: one mapping file per tenant
    folder = tmp_path / "tenants"
    folder.mkdir()
    for tenant in ("a", "b"):
        ontology_of(folder, tenant, f"{tenant}.toml")
    (folder / "notes.txt").write_text("not a mapping", encoding="utf-8")
    assert sorted(d.mapping.tenant for d in Domains.from_path(folder)) == ["a", "b"]


def test_two_mappings_of_a_tenant_or_a_server_wide_one_beside_others_are_refused(
    tmp_path: Path,
) -> None:
    a = ontology_of(tmp_path, "a", "a.toml")
    with pytest.raises(DomainMappingError, match="both name the tenant 'a'"):
        Domains([a, ontology_of(tmp_path, "a", "again.toml")])
    with pytest.raises(DomainMappingError, match="must be the only mapping"):
        Domains([a, ontology_of(tmp_path, "*", "wide.toml")])
    (tmp_path / "empty").mkdir()
    with pytest.raises(DomainMappingError, match=r"holds no \*\.toml"):
        Domains.from_path(tmp_path / "empty")


def test_a_missing_or_broken_file_is_a_mapping_error(tmp_path: Path) -> None:
    with pytest.raises(DomainMappingError, match="does not exist"):
        load_mapping(tmp_path / "nope.toml")
    with pytest.raises(DomainMappingError, match="not valid TOML"):
        load_mapping(write(tmp_path, "[database\n"))


def test_an_ontology_alone_needs_no_database(tmp_path: Path) -> None:
    m = load_mapping(write(tmp_path, 'tenant = "acme"\n[ontology]\nclosed = true\n'))
    assert m.database is None
    assert m.entities == {}
    assert not allows(m, "employer", "person", "organization")  # closed: undeclared


def test_the_ontology_allows_declared_types_and_undeclared_relations(tmp_path: Path) -> None:
    m = load_mapping(write(tmp_path, SHOP))
    assert allows(m, "employer", "customer", "organization")
    assert not allows(m, "employer", "organization", "customer")
    assert not allows(m, "employer", "customer", "place")
    assert allows(m, "sister", "person", "person")  # not declared, not closed


def test_an_entity_is_typed_by_its_domain_type_else_its_kind() -> None:
    base = {"tenant_id": "t", "namespace": "n", "user_id": None, "name": "x", "created_at": NOW}
    linked = Entity(id="e1", type=EntityType.PERSON, properties={"domain_type": "customer"}, **base)
    plain = Entity(id="e2", type=EntityType.PLACE, **base)
    assert type_of(linked) == "customer"
    assert type_of(plain) == "place"


def fact(value: str, predicate: str = "city", polarity: bool = True) -> Fact:
    return Fact(
        id=f"f-{value}",
        scope=Scope(user_id="u"),
        key=f"user:location:{predicate}",
        subject="user",
        predicate=predicate,
        category=FactCategory.LOCATION,
        value=value,
        polarity=polarity,
        text=f"I live in {value}",
        last_validated_at=NOW,
        recorded_at=NOW,
    )


def test_values_agree_as_names_do_and_unmapped_or_negated_facts_never_disagree() -> None:
    row = DomainRow(DomainRef("customer", "1"), "customers", "Ann", (), {"city": "Seattle"})
    assert same_value("12 Oak St.", "12 oak  st")
    assert not same_value("Seattle", "Portland")
    found = disagreements(
        [
            (fact("seattle"), row),  # agrees
            (fact("Portland"), row),  # disagrees
            (fact("Portland", polarity=False), row),  # "does not live in": no claim
            (fact("Globex", predicate="employer"), row),  # the row maps no employer
        ]
    )
    assert [(d.fact.value, d.domain_value) for d in found] == [("Portland", "Seattle")]
    assert "customers row 1" in found[0].note()


def test_a_domain_line_names_table_key_related_rows_and_what_it_overrules() -> None:
    entry = DomainFactEntry(
        id="customer:1",
        entity_type="customer",
        table="customers",
        key="1",
        name="Ann",
        values={"city": "Seattle"},
        related=[
            DomainRelated(
                relation="placed_by",
                entity_type="order",
                table="orders",
                key="7",
                name="SO-7",
                values={"status": "shipped"},
                inverse=True,
            )
        ],
        overrules=[
            Overruled(
                fact_id="f", predicate="city", memory_value="Portland", domain_value="Seattle"
            )
        ],
    )
    assert domain_line(entry) == (
        "- Ann (customer, customers #1): city Seattle;"
        " order SO-7 (orders #7: status shipped) placed by it"
        " [memory said city Portland: superseded by the database]"
    )


@pytest.mark.parametrize(
    ("query", "planned"),
    [("Where does Ann Lee live?", True), ("how are my orders?", True), ("what time?", False)],
)
def test_the_domain_step_is_planned_only_with_a_domain_and_something_to_look_up(
    query: str, planned: bool
) -> None:
    config = get_preset("balanced")
    analysis = analyze(query, NOW, names=("ann lee",) if "Ann" in query else ())
    with_domain = {s.kind for s in make_plan(analysis, config, domain=True).steps()}
    without = {s.kind for s in make_plan(analysis, config).steps()}
    assert (StepKind.DOMAIN in with_domain) is planned
    assert StepKind.DOMAIN not in without
