"""The agent-framework integrations stay optional: ``import cognimem`` loads no
framework, and an integration whose framework is missing says which extra installs it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import child_env

FRAMEWORKS = {"langgraph", "langchain_core", "agents", "pydantic_ai", "llama_index"}


def run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], env=child_env(), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_importing_cognimem_loads_no_framework() -> None:
    """The core install stays light: no framework is imported until an integration is."""
    code = (
        "import sys, cognimem, cognimem.client, cognimem.api\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({sorted(FRAMEWORKS)!r})))"
    )
    assert run(code) == "[]"


@pytest.mark.parametrize(
    ("module", "framework", "extra"),
    [
        ("openai_agents", "agents", "openai-agents"),
        ("pydantic_ai", "pydantic_ai", "pydantic-ai"),
        ("llamaindex", "llama_index", "llamaindex"),
    ],
)
def test_an_integration_without_its_framework_names_the_extra(
    module: str, framework: str, extra: str
) -> None:
    code = (
        "import sys\n"
        f"sys.modules[{framework!r}] = None  # as if it were not installed\n"
        "try:\n"
        f"    import cognimem.integrations.{module}\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    assert run(code).endswith(f"pip install 'cognimem[{extra}]'")
