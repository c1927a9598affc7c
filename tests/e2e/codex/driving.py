"""One scripted ``codex exec`` turn with ruleweave's hooks installed, offline against ``MockResponses``.

How to run the real Codex CLI 0.171.0 here (docs/hosts/codex.md): ``CODEX_HOME`` and ``HOME`` in the
test's folder, a ``mock`` model provider speaking the Responses API, compaction after 5,000 tokens (a
reply reporting more makes Codex compact before its next request), ``--trust`` for the project and
``--dangerously-bypass-hook-trust`` for the hooks (an untrusted hook is skipped without a word).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from tests.e2e.mock_responses import MockResponses, Reply, Script
from tests.e2e.npm_agents import agent_cli
from tests.hosts.running import RULEWEAVE

MODEL = "gpt-5.5"  # in 0.171.0's bundled catalog: it gets the freeform apply_patch tool


class Turn(NamedTuple):
    """What one turn left: the mock (its recorded requests), the project, Codex's home, its output."""

    mock: MockResponses
    project: Path
    codex_home: Path
    output: str


def run_turn(
    tmp: Path, files: Mapping[str, str], script: Sequence[Reply | Script], prompt: str, user_config: str = "",
    cwd: str = "",
    install: Sequence[str] = (),
    trust: bool = True,
) -> Turn:
    """Write the project, ``ruleweave install codex`` into it, and run one ``codex exec`` turn.

    Args:
        tmp: A folder of the test's own (the project, the homes and the state directory go there).
        files: The project's files, by path relative to its root (``../codex-home/…`` and ``../home/…``
            reach Codex's home and the user's, which sit beside the project).
        script: The mock's replies to the turn's agent-loop requests (a callable chooses from the request).
        prompt: The user's prompt.
        user_config: TOML lines for ``$CODEX_HOME/config.toml``, before the mock provider's table.
        cwd: Where Codex starts, relative to the project root (default: the root).
        install: More ``ruleweave install codex`` options (``--user``: the hooks in ``$CODEX_HOME``).
        trust: Pass ``--trust`` (Codex refuses it for a project its config marks untrusted).

    Returns:
        The ``Turn``; the state directory is ``tmp / "state"``.
    """
    codex = agent_cli("codex")
    project = tmp / "repo"
    project.mkdir(parents=True)
    # A real repository: Codex 0.171.0 trusts a project, and loads the .codex layers above a cwd in a
    # subfolder, by its git root (an empty .git folder left the root's hooks unloaded from pkg/).
    subprocess.run(["git", "init", "-q", str(project)], check=True, capture_output=True)
    for rel, body in files.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(body, encoding="utf-8")
    home, codex_home = tmp / "home", tmp / "codex-home"
    home.mkdir(exist_ok=True)
    codex_home.mkdir(exist_ok=True)
    env = {
        **os.environ, "HOME": str(home), "CODEX_HOME": str(codex_home), "MOCK_API_KEY": "test",
        "RULEWEAVE_STATE_DIR": str(tmp / "state"), "RUST_LOG": "warn", "NO_COLOR": "1",
    }
    done = subprocess.run([RULEWEAVE, "install", "codex", "--cwd", str(project), "--absolute", *install],
                          capture_output=True, text=True, env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    with MockResponses(list(script)) as mock:
        (codex_home / "config.toml").write_text(
            f'{user_config}model = "{MODEL}"\nmodel_provider = "mock"\n'
            'model_auto_compact_token_limit = 5000\n\n'
            f'[model_providers.mock]\nname = "mock"\nbase_url = "{mock.url}"\nwire_api = "responses"\n'
            'env_key = "MOCK_API_KEY"\nrequest_max_retries = 0\nstream_max_retries = 0\n',
            encoding="utf-8",
        )
        ran = subprocess.run(
            [str(codex), "exec", "--skip-git-repo-check", *(["--trust"] if trust else []),
             "--dangerously-bypass-hook-trust", "-C", str(project / cwd), prompt],
            capture_output=True, text=True, env=env, timeout=120, check=False, stdin=subprocess.DEVNULL,
        )
        assert ran.returncode == 0, ran.stderr[-4000:]
    return Turn(mock, project, codex_home, ran.stdout + ran.stderr)
