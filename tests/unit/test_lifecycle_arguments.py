"""The lifecycle calls' arguments (``models/lifecycle_requests.py``): each call's
keywords are one ``TypedDict`` the faces unpack, a run's are ``RunOptions``, and the
operations every lifecycle call hands its run to take exactly those keywords, so a
field added to one fails here until the others take it."""

from __future__ import annotations

from cognimem.api.schemas import LifecycleRequest
from cognimem.client import AsyncMemoryClient
from cognimem.memory import Memory
from cognimem.models import Scope
from cognimem.models.arguments import make_scope
from cognimem.models.lifecycle_requests import (
    ConsolidateKeywords,
    JobListArgs,
    JobListKeywords,
    LevelRunKeywords,
    LifecycleJobKeywords,
    MandateKeywords,
    PolicyRunKeywords,
    ProcedureListKeywords,
    ProcedureRunKeywords,
    ReviseKeywords,
    ReviseOptions,
    RunKeywords,
    RunLifecycleKeywords,
    RunOptions,
    UserRunKeywords,
    run_of,
)
from cognimem.services.lifecycle.consolidation import ConsolidationService
from cognimem.services.lifecycle.decay import DecayService
from cognimem.services.lifecycle.forgetting_policy import ForgettingPolicyService
from cognimem.services.lifecycle.operations import OperationService
from cognimem.services.lifecycle.procedures import ProcedureService
from cognimem.services.lifecycle.promotion import PromotionService
from cognimem.services.lifecycle.revision import RevisionService
from tests.unit.signatures import keywords, names, typed_keys, unpacked

MEMORY = {
    "consolidate": ConsolidateKeywords,
    "revise": ReviseKeywords,
    "detect_procedures": ProcedureRunKeywords,
    "procedures": ProcedureListKeywords,
    "decay": LevelRunKeywords,
    "promote": UserRunKeywords,
    "mandate_candidates": MandateKeywords,
    "forget_by_policy": PolicyRunKeywords,
    "run_lifecycle": RunLifecycleKeywords,
    "list_jobs": JobListKeywords,
}
# the operation each call runs, and what its run is: revision's own ``revise``, and
# for every other operation its service's ``run``, the one ``OperationService`` writes
OPERATIONS = {OperationService.run: RunOptions, RevisionService.revise: ReviseOptions}
RUN_BY_THE_BASE = (
    ConsolidationService,
    ProcedureService,
    DecayService,
    PromotionService,
    ForgettingPolicyService,
)


def test_a_run_s_keywords_are_its_object_s_fields() -> None:
    assert typed_keys(RunKeywords) == names(RunOptions)
    assert typed_keys(ReviseKeywords) - {"scope", "user_id", "agent_id", "session_id"} == names(
        ReviseOptions
    )


def test_each_operation_takes_its_run_s_keywords() -> None:
    for service in RUN_BY_THE_BASE:
        assert service.run is OperationService.run, service
    for operation, run in OPERATIONS.items():
        assert keywords(operation) == names(run) | {"scope"}, operation


def test_memory_unpacks_each_call_s_keywords() -> None:
    for call, typed in MEMORY.items():
        assert unpacked(getattr(Memory, call)) is typed, call


def test_the_sdk_takes_memory_s_keywords_but_a_dry_run_s_progress() -> None:
    assert unpacked(AsyncMemoryClient.run_lifecycle) is LifecycleJobKeywords
    assert typed_keys(LifecycleJobKeywords) == typed_keys(RunLifecycleKeywords) - {"progress"}
    assert unpacked(AsyncMemoryClient.mandate_candidates) is MandateKeywords
    assert unpacked(AsyncMemoryClient.list_jobs) is JobListKeywords
    assert typed_keys(JobListKeywords) == names(JobListArgs)
    # the HTTP body: the scope's keywords as its scope
    assert set(LifecycleRequest.model_fields) == typed_keys(LifecycleJobKeywords) - {
        "user_id",
        "agent_id",
        "namespace",
    }


def test_a_run_is_made_with_its_scope_and_its_defaults() -> None:
    target, run = run_of(make_scope, None, {"user_id": "u1", "use_llm": False}, ReviseOptions)

    assert target == Scope(user_id="u1")
    assert run.keywords() == {"dry_run": False, "progress": None, "since": None, "use_llm": False}
    assert run_of(make_scope, {"user_id": "u2"}, {})[0] == Scope(user_id="u2")
