"""Reading: the context packet for a query (``read``), and a conversational turn that
reads for the user's message, writes both messages and revises what the read retrieved
against the user's message (``turn``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from cognimem.errors import InvalidInput, UsageError
from cognimem.models import ContextPacket, ItemKind, Message, Role, Scope, Turn
from cognimem.models.arguments import ORGANISATION, ScopeLike, make_message, make_read_scope
from cognimem.models.profiles import IngestProfile
from cognimem.providers.embed_batcher import QueryBatcher
from cognimem.recall import Reader, RecallConfig, get_preset
from cognimem.recall.analyze import zone_of
from cognimem.recall.citations import cited_items
from cognimem.recall.classify import LLMQueryClassifier
from cognimem.recall.constraints import SectionConfig
from cognimem.recall.conversation.cross import missing_install
from cognimem.recall.overrides import RankingOverrides, apply_ranking, make_ranking
from cognimem.recall.profile import ProfileConfig
from cognimem.recall.reader import SectionSink
from cognimem.services.components import Components
from cognimem.services.lifecycle.procedures import ProcedureService
from cognimem.services.lifecycle.revision import RevisionService
from cognimem.services.writing import WriteService
from cognimem.text.validate import check_message, check_period, check_text, check_time

# a packet's largest token budget: beyond any model's context window
MAX_READ_TOKENS = 200_000


def loaded_ids(packet: ContextPacket) -> list[str]:
    """The memories a packet holds as items: ranked, mandates, summaries, procedures."""
    s = packet.sections
    return list(
        dict.fromkeys(i.id for i in (*packet.items, *s.mandates, *s.summaries, *s.procedures))
    )


def session_context(target: Scope, session_only: bool) -> tuple[Scope, str | None]:
    """The scope a read searches and the session it ranks up. A session is context, not
    a wall: a read naming ``session_id`` reads every session of the user and ranks that
    one's memories up; ``session_only`` reads that session alone (and needs one)."""
    if target.session_id is None:
        if session_only:
            raise InvalidInput(
                "session_only reads one session: pass scope.session_id", field="session_only"
            )
        return target, None
    if session_only:
        return target, None
    return target.model_copy(update={"session_id": None}), target.session_id


class ReadService:
    """``Memory.read`` and ``turn`` (documented there), the reader other services
    rank with (forget by query), and the revision and procedure reinforcement a turn
    ends with (``revision``, also ``Memory.revise``; ``procedures``, also
    ``Memory.detect_procedures``)."""

    def __init__(self, parts: Components, writing: WriteService) -> None:
        self._parts = parts
        self._writing = writing
        classifier = None
        if parts.llm is not None and parts.settings.recall.llm_classifier:
            classifier = LLMQueryClassifier(parts.llm)
        # concurrent reads (a server's) embed their queries together
        queries = QueryBatcher(parts.embedder)
        profile = ProfileConfig(max_tokens=parts.settings.recall.profile_tokens)
        self.reader = Reader(
            parts.store,
            queries,
            sections=SectionConfig(profile=profile),
            classifier=classifier,
            domains=parts.domains,
        )
        self.revision = RevisionService(parts, self.reader, self.recall_config)
        self.procedures = ProcedureService(parts)

    async def aclose(self) -> None:
        """Release the reader's cross-encoders (the components close on their own)."""
        await self.reader.aclose()

    def recall_config(
        self, preset: str | None = None, ranking: RankingOverrides | None = None
    ) -> RecallConfig:
        """The named preset (default: the configured one) under the configured time
        limits, with the configured ranking overrides and then the read's own, for every
        read this memory runs. A preset whose cross-encoder is not installed here is
        refused before anything runs: ``InvalidInput`` (``preset``) when the caller named
        it, ``UsageError`` when the operator configured it."""
        r = self._parts.settings.recall
        config = get_preset(
            preset or r.preset, step_timeout_s=r.step_timeout_s, budget_s=r.budget_s
        )
        install = missing_install(config)
        if install is not None:
            lacks = (
                f"its cross-encoder {config.cross_encoder} is not installed here "
                f"(install it with: {install})"
            )
            if preset:
                raise InvalidInput(
                    f"preset {preset!r} cannot run: {lacks}; or choose another preset",
                    field="preset",
                )
            raise UsageError(
                f"the configured recall preset {r.preset!r} (COGNIMEM_RECALL__PRESET) "
                f"cannot run: {lacks}"
            )
        return apply_ranking(config, r.ranking, ranking)

    async def read(
        self,
        query: str,
        *,
        scope: ScopeLike,
        user_id: str | None,
        agent_id: str | None,
        session_id: str | None,
        all_users: bool,
        limit: int | None,
        max_tokens: int | None,
        preset: str | None,
        ranking: RankingOverrides | Mapping[str, Any] | None,
        kinds: Sequence[ItemKind | str] | None,
        since: datetime | None,
        until: datetime | None,
        reference_time: datetime | None,
        timezone: str | None,
        explain: bool,
        session_only: bool = False,
        on_section: SectionSink | None = None,
        as_of: datetime | None = None,
        as_of_recorded: datetime | None = None,
    ) -> ContextPacket:
        parts = self._parts
        parts.require_open()
        check_text(query, "query", parts.settings.ingest.max_content_chars)
        target = make_read_scope(
            scope,
            all_users=all_users,
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
        )
        searched, session = session_context(target, session_only)
        r = parts.settings.recall
        limit = r.default_limit if limit is None else limit
        max_tokens = r.default_max_tokens if max_tokens is None else max_tokens
        if not 1 <= limit <= 200:
            raise InvalidInput("limit must be between 1 and 200", field="limit")
        if not 1 <= max_tokens <= MAX_READ_TOKENS:
            raise InvalidInput(
                f"max_tokens must be between 1 and {MAX_READ_TOKENS}", field="max_tokens"
            )
        check_period(since, until)
        check_time(reference_time, "reference_time")
        check_time(as_of, "as_of")
        check_time(as_of_recorded, "as_of_recorded")
        try:
            kind_filter = None if kinds is None else tuple(ItemKind(k) for k in kinds)
        except ValueError as exc:
            raise InvalidInput(f"kinds: {exc}", field="kinds") from exc
        zone_of(timezone)  # an unknown zone is an InvalidInput naming the field
        config = self.recall_config(preset, make_ranking(ranking))
        now = parts.clock()
        packet = await self.reader.read(
            query,
            searched,
            config=config,
            limit=limit,
            max_tokens=max_tokens,
            reference_time=reference_time or now,
            kinds=kind_filter,
            since=since,
            until=until,
            timezone=timezone,
            explain=explain,
            session=session,
            on_section=on_section,
            as_of=as_of,
            as_of_recorded=as_of_recorded,
        )
        parts.access.add(target.tenant_id, loaded_ids(packet), now)
        return packet

    async def turn(
        self,
        user_message: str | Message | Mapping[str, Any],
        assistant_message: str | Message | Mapping[str, Any] | None,
        *,
        scope: ScopeLike,
        user_id: str | None,
        agent_id: str | None,
        session_id: str | None,
        all_users: bool,
        limit: int | None,
        max_tokens: int | None,
        preset: str | None,
        ranking: RankingOverrides | Mapping[str, Any] | None,
        timezone: str | None,
        profile: str | IngestProfile,
        session_only: bool = False,
    ) -> Turn:
        parts = self._parts
        parts.require_open()
        user = make_message(user_message, "user")
        messages = [user]
        if assistant_message is not None:
            assistant = make_message(assistant_message, "assistant")
            if isinstance(assistant_message, str) or (
                isinstance(assistant_message, Mapping) and "role" not in assistant_message
            ):
                assistant = assistant.model_copy(update={"role": Role.ASSISTANT})
            messages.append(assistant)
        for field, m in zip(("user", "assistant"), messages, strict=False):
            check_message(m, f"{field}.", parts.settings.ingest)
        target = make_read_scope(
            scope,
            all_users=all_users,
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
        )
        packet = await self.read(
            user.content,
            scope=target,
            user_id=None,
            agent_id=None,
            session_id=None,
            all_users=target.user_id is None,
            limit=limit,
            max_tokens=max_tokens,
            preset=preset,
            ranking=ranking,
            kinds=None,
            since=None,
            until=None,
            reference_time=user.occurred_at,
            timezone=timezone,
            explain=False,
            session_only=session_only,
        )
        # a tenant-wide turn (all_users, said explicitly) stores at the organisation level
        owner: ScopeLike = target
        if target.user_id is None and target.agent_id is None:
            owner = {**target.model_dump(), "level": ORGANISATION}
        stored = await self._writing.write_batch(
            messages,
            scope=owner,
            user_id=None,
            agent_id=None,
            session_id=None,
            profile=profile,
        )
        revision = await self.revision.after_turn(packet, stored, target)
        reinforced = await self.procedures.after_turn(packet, stored, target)
        cited: list[str] = []
        if assistant_message is not None:
            # an answer shows what the packet was used for: its memories count as loaded
            # (tried) and those the answer used as cited; a read alone counts neither
            cited = cited_items(messages[1].content, packet)
            store = parts.store
            await store.record_usage(target.tenant_id, loaded_ids(packet), {"loaded_count": 1})
            await store.record_usage(target.tenant_id, cited, {"cited_count": 1})
        return Turn(
            packet=packet,
            stored=stored,
            revision=revision,
            cited=cited,
            procedures_reinforced=reinforced,
        )
