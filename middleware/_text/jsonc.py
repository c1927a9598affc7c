"""JSON with comments (JSONC), as the agents' own settings files are written.

OpenCode's ``opencode.jsonc``, Gemini CLI's and Qwen Code's ``settings.json`` and
``trustedFolders.json`` (read through ``strip-json-comments``) all allow ``//``
and ``/* */`` comments; a reader that refuses them misreads a file its agent reads.
"""

from __future__ import annotations


def without_comments(text: str) -> str:
    """JSONC → JSON: ``//`` and ``/* */`` comments and trailing commas removed, strings kept as written.

    Args:
        text: The file's text.

    Returns:
        Text ``json.loads`` reads as the agent reads the original.
    """
    out: list[str] = []
    comma = -1  # where in ``out`` the last comma outside a string went, until a value follows it
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[i : end + 1])
            comma = -1
            i = end + 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            if char in "}]" and comma >= 0:
                out[comma] = ""  # a trailing comma: JSON has none
            if not char.isspace():
                comma = len(out) if char == "," else -1
            out.append(char)
            i += 1
    return "".join(out)
