"""Reading: the context packet for a query (``read``), and a conversational turn that
reads for the user's message, writes both messages and revises what the read retrieved
against the user's message (``turn``)."""

from __future__ import annotations

from collections.abc import Mapping

from cognimem.errors import InvalidInput, UsageError
from cognimem.models import ContextPacket, ItemKind, Message, Role, Scope, Turn
from cognimem.models.arguments import (
    NAMESPACE,
    ScopeLike,
    make_message,
    make_reach_scope,
    make_read_scope,
)
from cognimem.models.requests import MessageLike, ReadArgs, ReadOptions, TurnArgs, WriteArgs
from cognimem.providers.embed_batcher import QueryBatcher
from cognimem.recall import Reader, RecallConfig, get_preset
from cognimem.recall.analyze import zone_of
from cognimem.recall.citations import cited_items
from cognimem.recall.classify import LLMQueryClassifier
from cognimem.recall.constraints import SectionConfig
from cognimem.recall.conversation.cross import missing_install
from cognimem.recall.overrides import RankingOverrides, apply_ranking, make_ranking
from cognimem.recall.packing import SectionSink
from cognimem.recall.profile import ProfileConfig
from cognimem.services import collector
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


def turn_messages(user: MessageLike, assistant: MessageLike | None) -> list[Message]:
    """A turn's messages made: the user's, then the assistant's when given (a reply given
    as text, or as a mapping without a role, is the assistant's)."""
    messages = [make_message(user, "user")]
    if assistant is not None:
        reply = make_message(assistant, "assistant")
        if isinstance(assistant, str) or (
            isinstance(assistant, Mapping) and "role" not in assistant
        ):
            reply = reply.model_copy(update={"role": Role.ASSISTANT})
        messages.append(reply)
    return messages


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
            preset or r.preset,
            step_timeout_s=r.step_timeout_s,
            budget_s=r.budget_s,
            cross_encoder_max_tokens=r.cross_encoder_max_tokens,
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

    def read_scope(
        self, query: str, scope: ScopeLike = None, *, all_users: bool = False, **fields: str | None
    ) -> tuple[Scope, bool]:
        """A read's scope, made once by the face that builds its ``ReadArgs``, after the
        checks that come first (an open memory, the query), so a read with a bad query
        and a bad scope is refused for its query; and whether it is one shared level
        alone (an agent's, the organisation's: ``make_reach_scope``)."""
        self._parts.require_open()
        check_text(query, "query", self._parts.settings.ingest.max_content_chars)
        return make_reach_scope(scope, all_users=all_users, **fields)

    def turn_scope(
        self,
        user_message: MessageLike,
        assistant_message: MessageLike | None,
        scope: ScopeLike = None,
        *,
        all_users: bool = False,
        **fields: str | None,
    ) -> Scope:
        """A turn's scope, made once as ``read_scope`` makes a read's, after its
        messages are checked."""
        self._parts.require_open()
        self._messages(user_message, assistant_message)
        return make_read_scope(scope, all_users=all_users, **fields)

    def _messages(self, user: MessageLike, assistant: MessageLike | None) -> list[Message]:
        """A turn's messages, made and checked (``InvalidInput`` naming the field)."""
        messages = turn_messages(user, assistant)
        for field, m in zip(("user", "assistant"), messages, strict=False):
            check_message(m, f"{field}.", self._parts.settings.ingest)
        return messages

    async def read(
        self, args: ReadArgs, on_section: SectionSink | None = None, *, level: bool = False
    ) -> ContextPacket:
        """``args`` read; ``level``: its scope (no user) is one shared level, read alone."""
        parts = self._parts
        parts.require_open()
        check_text(args.query, "query", parts.settings.ingest.max_content_chars)
        searched, session = session_context(args.scope, args.session_only)
        limit, max_tokens = self._budget(args)
        check_period(args.since, args.until)
        check_time(args.reference_time, "reference_time")
        check_time(args.as_of, "as_of")
        check_time(args.as_of_recorded, "as_of_recorded")
        try:
            kinds = None if args.kinds is None else tuple(ItemKind(k) for k in args.kinds)
        except ValueError as exc:
            raise InvalidInput(f"kinds: {exc}", field="kinds") from exc
        zone_of(args.timezone)  # an unknown zone is an InvalidInput naming the field
        config = self.recall_config(args.preset, make_ranking(args.ranking))
        now = parts.clock()
        with collector.reading():
            packet = await self.reader.read(
                args,
                searched,
                config=config,
                limit=limit,
                max_tokens=max_tokens,
                reference_time=args.reference_time or now,
                kinds=kinds,
                session=session,
                on_section=on_section,
                level=level,
            )
        parts.access.add(args.scope.tenant_id, loaded_ids(packet), now)
        return packet

    def _budget(self, args: ReadOptions) -> tuple[int, int]:
        """The read's ``limit`` and ``max_tokens``, the settings' where it names none;
        out of bounds is ``InvalidInput``."""
        r = self._parts.settings.recall
        limit = r.default_limit if args.limit is None else args.limit
        max_tokens = r.default_max_tokens if args.max_tokens is None else args.max_tokens
        if not 1 <= limit <= 200:
            raise InvalidInput("limit must be between 1 and 200", field="limit")
        if not 1 <= max_tokens <= MAX_READ_TOKENS:
            raise InvalidInput(
                f"max_tokens must be between 1 and {MAX_READ_TOKENS}", field="max_tokens"
            )
        return limit, max_tokens

    async def turn(self, args: TurnArgs) -> Turn:
        parts = self._parts
        parts.require_open()
        messages = self._messages(args.user_message, args.assistant_message)
        user, target = messages[0], args.scope
        packet = await self.read(args.read_args(user.content, user.occurred_at))
        # a turn of every user (all_users, said explicitly) stores at its namespace's level
        owner: ScopeLike = target
        if target.user_id is None and target.agent_id is None:
            owner = {**target.model_dump(), "level": NAMESPACE}
        made, scope = self._writing.prepare(messages, owner)
        stored = await self._writing.write(
            WriteArgs(messages=made, scope=scope, profile=args.profile)
        )
        revision = await self.revision.after_turn(packet, stored, target)
        reinforced = await self.procedures.after_turn(packet, stored, target)
        cited: list[str] = []
        if len(messages) > 1:
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
