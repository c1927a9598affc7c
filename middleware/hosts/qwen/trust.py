"""Qwen Code's folder trust, decided as 0.24.4 decides it, for the hooks the user installed.

With folder trust on, Qwen Code loads no instruction file of a folder it does not
trust (``QWEN.md``, ``AGENTS.md``, ``.qwen/QWEN.local.md``: ``Config.isTrustedFolder``
gates ``loadServerHierarchicalMemory``), yet it runs the hooks installed in the
user's settings there (``HookRegistry.processHooksFromConfig``). Real runs with
``ruleweave install qwen --user``: in a folder marked ``DO_NOT_TRUST``, and in one
``trustedFolders.json`` does not name, the model got no ``QWEN.md`` from Qwen but
the project's rules from the hooks. ``distrusts`` tells the hooks to stay silent there.

Qwen's decision, read from its bundle (``cli/src/config/trustedFolders.ts``,
``trust-precedence.ts``, ``path-comparison.ts``):

* folder trust is on when ``security.folderTrust.enabled`` says so in the system
  settings, else in the user's ``settings.json``, else in the system defaults
  (off when none does; a project's own settings cannot switch it);
* ``trustedFolders.json`` (``$QWEN_CODE_TRUSTED_FOLDERS_PATH``, else in
  ``$QWEN_HOME``) maps paths to ``TRUST_FOLDER``, ``TRUST_PARENT`` (the path's
  parent) or ``DO_NOT_TRUST``; of the rules whose path holds the working
  directory (each compared as written and with links resolved), the deepest
  wins, ``DO_NOT_TRUST`` on a tie;
* the main config trusts only a folder so decided ``TRUST_*``: no rule is untrusted;
* a connected IDE's workspace trust decides before all that. A hook cannot see
  it, so with the IDE companion's variables set the hooks answer as before.

The files are the user's and the machine's own, read as Qwen reads them (JSON with
comments), each bounded; one that cannot be read counts as absent. Standard library only.
"""

from __future__ import annotations

import os

from ruleweave._files.paths import is_within
from ruleweave.hosts._layered_settings import QWEN, layers, read_jsonc

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from ruleweave.config import RuleweaveConfig

IDE_VARIABLES = ("QWEN_CODE_IDE_SERVER_PORT", "QWEN_CODE_IDE_WORKSPACE_PATH")
"""Set when Qwen Code runs in an IDE whose companion may decide the workspace's trust."""

ENVIRONMENT = (
    "QWEN_CODE_TRUSTED_FOLDERS_PATH", "QWEN_CODE_SYSTEM_SETTINGS_PATH", "QWEN_CODE_SYSTEM_DEFAULTS_PATH",
    *IDE_VARIABLES,
)
"""Every variable the decision reads (a hook snapshot is keyed by them)."""

_LEVELS = {"TRUST_FOLDER": True, "TRUST_PARENT": True, "DO_NOT_TRUST": False}


def distrusts(config: RuleweaveConfig, env: Mapping[str, str] = os.environ) -> bool:
    """Whether Qwen Code, started in ``config.cwd``, loads none of the project's instruction files
    because it does not trust the folder.

    Args:
        config: The configuration (the working directory and ``$QWEN_HOME``).
        env: Qwen Code's environment (the hook inherits it).

    Returns:
        True with folder trust on and the working directory not trusted; False otherwise, and when
        an IDE may decide.
    """
    if any(env.get(name) for name in IDE_VARIABLES):
        return False
    if not folder_trust_enabled(config, env):
        return False
    return trust_decision(trust_rules(config, env), os.fspath(config.cwd)) is not True


def folder_trust_enabled(config: RuleweaveConfig, env: Mapping[str, str] = os.environ) -> bool:
    """``security.folderTrust.enabled`` from the system settings, else the user's, else the system
    defaults (``false`` when none sets it; a v1 file's top-level ``folderTrust`` counts)."""
    # The workspace's own settings cannot switch it: its layer is left out.
    for _, data in reversed(layers(QWEN, os.path.join(config.qwen_dir, "settings.json"), env=env)):
        value = _enabled(data)
        if value is not None:
            return value
    return False


def trust_rules(config: RuleweaveConfig, env: Mapping[str, str] = os.environ) -> list[tuple[str, str]]:
    """The ``(path, level)`` rules of the user's ``trustedFolders.json``, in file order (unknown levels
    dropped, as Qwen drops them)."""
    path = env.get("QWEN_CODE_TRUSTED_FOLDERS_PATH") or os.path.join(config.qwen_dir, "trustedFolders.json")
    data = read_jsonc(path)
    if not isinstance(data, dict):
        return []
    return [(key, value) for key, value in data.items() if isinstance(value, str) and value in _LEVELS]


def trust_decision(rules: list[tuple[str, str]], location: str) -> bool | None:
    """Qwen's ``resolveTrustDecision``: the deepest rule whose path holds ``location`` (``DO_NOT_TRUST``
    on a tie); ``None`` when none does.

    Args:
        rules: ``trust_rules``.
        location: The working directory (a relative rule path is taken against it, as Qwen takes it
            against its own).
    """
    places = _variants(location, location)
    best: bool | None = None
    depth = -1
    for path, level in rules:
        if level == "TRUST_PARENT":
            path = os.path.dirname(path.rstrip("/\\") or "/")  # node's dirname ignores a trailing slash
        holding = [base for base in _variants(path, location) if any(is_within(p, base) for p in places)]
        found = max((_depth(base) for base in holding), default=-1)
        trusted = _LEVELS[level]
        if found > depth or (found == depth >= 0 and not trusted and best is not False):
            best, depth = trusted, found
    return best


def _enabled(settings: dict[str, object]) -> bool | None:
    security = settings.get("security")
    if isinstance(security, dict) and isinstance(security.get("folderTrust"), dict):
        value = security["folderTrust"].get("enabled")
        return value if isinstance(value, bool) else None
    value = settings.get("folderTrust")  # a v1 settings file, which Qwen migrates
    return value if "security" not in settings and isinstance(value, bool) else None


def _variants(path: str, cwd: str) -> set[str]:
    """``getPathComparisonVariants``: the path resolved lexically, and with links resolved if it exists."""
    lexical = os.path.normpath(os.path.join(cwd, path))
    try:
        return {lexical, os.path.realpath(lexical, strict=True)}
    except (OSError, RuntimeError):  # absent (Qwen's realpathSync throws): the path as written
        return {lexical}


def _depth(path: str) -> int:
    return len([part for part in path.split(os.sep) if part])
