"""Layer 0: the user's own domain database and the ontology (``docs/domain.md``).

A mapping file (TOML) belongs to one tenant and says which tables are entity types,
which rows of each a user may see, and which foreign keys are relations;
``SqlDomainSource`` reads them, read-only, from SQLite or PostgreSQL.
cognimem never copies the domain: entities link to rows (``external_ref``), a read looks
current values up, and a memory that disagrees with the domain is a ``trust_domain``
conflict."""

from cognimem.domain.layer import Domain, Domains
from cognimem.domain.mapping import DomainMapping, load_mapping
from cognimem.domain.source import DomainRecord, DomainRef, DomainRow, DomainSource, RelatedRow

__all__ = [
    "Domain",
    "DomainMapping",
    "DomainRecord",
    "DomainRef",
    "DomainRow",
    "DomainSource",
    "Domains",
    "RelatedRow",
    "load_mapping",
]
