"""The paths a Codex tool call touches, for the tools the default extractor does not read.

``Bash`` (Codex's ``exec_command`` and ``shell``, as its hooks name them) touches
the words of ``tool_input.command`` that look like paths, read as for Claude
Code's ``Bash`` (``ruleweave.hosts.claude_code.paths.bash_paths``); relative
words resolve against the session's cwd, since Codex leaves the call's
``workdir`` out of the hook input. ``apply_patch`` needs nothing here: its
patch text (``tool_input.command``) is read by the patch extractor every edit
tool gets; ``view_image`` names its file under ``path``, a key the default
extractor reads. No ``typing`` here: the warm path imports this module.
"""

from __future__ import annotations

from ruleweave.hosts.claude_code.paths import bash_paths

TYPE_CHECKING = False  # not typing's: see the module docstring
if TYPE_CHECKING:
    from collections.abc import Mapping

    from ruleweave._kernel.paths import Extractor

EXTRACTORS: Mapping[str, Extractor] = {"Bash": bash_paths}
"""Extractors for Codex's tools whose arguments name paths in their own way."""
