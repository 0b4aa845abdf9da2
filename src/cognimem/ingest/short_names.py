"""Whether a message may call a known person by a short form of their first name ("Dom"
after "my colleague Dominic Price"), decided from the names the scope already holds.

The rule extractor rewrites such a word to the person's name only when the
conversation's recent messages name them (``ingest/extract/coref.py``), and the
funnel reads those messages only when a message may point back to someone: a pronoun
or a role word (``coref.may_refer``), or, here, a capitalised word that opens the first
name of exactly one person the scope knows — an alias's first word, strictly longer
than the word — and is itself no first name of the shipped lists ("Chris" is one: the
rules read it as a person's name alone, and entity resolution links it to the one
Christopher the scope knows, window or not). Two people whose first names the word
opens read nothing (the word names neither). Written turn by turn, LoCoMo's dev turns
read the window 126 times in 2,760 (124 for a pronoun or a role word); reading it for
any capitalised word that is no listed first name would be 855
(``benchmarks/short_name_reads.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from cognimem.ingest.extract.coref import short_forms
from cognimem.models import Scope
from cognimem.models.knowledge import Alias, EntityType
from cognimem.store.arguments import KnowledgeView
from cognimem.store.protocols import KnowledgeStore
from cognimem.text.gazetteer import is_first_name


async def shortens_a_known_name(store: KnowledgeStore, scope: Scope, texts: Sequence[str]) -> bool:
    """Whether a word of ``texts`` may be a short form of the first name of exactly one
    person known in ``scope``: one alias query, and an entity query only when some
    alias's first word is opened by one."""
    words = {w for t in texts for w in short_forms(t) if not is_first_name(w)}
    if not words:
        return False
    view = KnowledgeView(scope.tenant_id, scope.namespace, scope.user_id)
    opened = opened_by(words, await store.find_aliases(view, None))
    if not opened:
        return False
    ids = sorted(set().union(*opened.values()))
    people = {
        e.id for e in await store.get_entities(scope.tenant_id, ids) if e.type is EntityType.PERSON
    }
    return any(len(found & people) == 1 for found in opened.values())


def opened_by(words: set[str], aliases: Sequence[Alias]) -> dict[str, set[str]]:
    """For each of ``words`` (lower-cased) that strictly opens the first word of some
    alias, the entities of those aliases."""
    out: dict[str, set[str]] = {}
    for a in aliases:
        first = a.alias.split()[0] if a.alias.strip() else ""
        for w in words:
            if len(first) > len(w) and first.startswith(w):
                out.setdefault(w, set()).add(a.entity_id)
    return out
