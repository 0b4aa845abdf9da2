"""The ontology's checks (pure): which type an entity is, and whether a relation may
join two entities of given types."""

from __future__ import annotations

from cognimem.domain.mapping import DomainMapping
from cognimem.models.knowledge import Entity

DOMAIN_TYPE = "domain_type"  # the entity property naming a domain-linked entity's type
DOMAIN_TABLE = "domain_table"


def type_of(entity: Entity) -> str:
    """A domain-linked entity's domain type ("customer"), else its kind ("person")."""
    found = entity.properties.get(DOMAIN_TYPE)
    return found if isinstance(found, str) and found else entity.type.value


def allows(mapping: DomainMapping, relation: str, subject_type: str, object_type: str) -> bool:
    """Whether the ontology lets ``relation`` join a ``subject_type`` to an
    ``object_type``. A relation it does not declare is allowed, unless the ontology is
    ``closed``."""
    declared = mapping.relation_types.get(relation)
    if declared is None:
        return not mapping.closed
    return subject_type in declared.subjects and object_type in declared.objects
