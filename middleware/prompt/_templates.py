"""Template overrides checked when a rule set loads: every name known, every ``str.format`` field offered.

Light on purpose (``_string`` only, besides the streamed-rule templates' fields): a hook's cold start
checks the templates of its host without assembling a prompt.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ruleweave.errors import ConfigError
from ruleweave.ttsr.render import TEMPLATE_FIELDS

try:  # what ``string.Formatter().parse`` calls; importing ``string`` compiles ``Template``'s regex
    from _string import formatter_parser as _parse  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - an interpreter without CPython's module layout
    import string

    def _parse(text: str) -> Iterable[tuple[str, str | None, str | None, str | None]]:
        return string.Formatter().parse(text)

_FIELDS: Mapping[str, frozenset[str]] = {
    "generic": frozenset({"rules"}),
    "generic_rule": frozenset({"name", "path", "body"}),
    "domain": frozenset({"rules"}),
    "domain_line": frozenset({"name", "globs", "description"}),
    "rule_protocol": frozenset(),
    "custom_rules": frozenset({"rules"}),
    "custom_rule": frozenset({"name", "description", "globs"}),
    "custom_glob": frozenset({"glob"}),
    "notice": frozenset({"name", "body"}),
    "instructions_notice": frozenset({"path", "body"}),
    "listing_notice": frozenset({"path", "body"}),
    "rule_address": frozenset({"name", "shell"}),
}


def check_templates(templates: Mapping[str, str]) -> None:
    """Refuse template overrides that would fail when rendered (prompt, notice and TTSR templates).

    Args:
        templates: ``RuleweaveConfig.templates``.

    Raises:
        ConfigError: An unknown template name, a ``str.format`` field the template does not
            offer, or a malformed format string; the message names the template.
    """
    known = {**_FIELDS, **TEMPLATE_FIELDS}
    for name, text in sorted(templates.items()):
        fields = known.get(name)
        if fields is None:
            raise ConfigError(
                f"Unknown template {name!r} in templates; known: {', '.join(sorted(known))}."
            )
        try:
            used = {field for _, field, _, _ in _parse(text) if field is not None}
        except ValueError as exc:
            raise ConfigError(f"Template {name!r} is not a valid format string: {exc}.") from exc
        for field in sorted(used):
            base = field.split(".", 1)[0].split("[", 1)[0]
            if base not in fields:
                offered = ", ".join("{" + f + "}" for f in sorted(fields)) or "no fields"
                raise ConfigError(
                    f"Template {name!r} uses the unknown field {{{field}}}; it offers {offered}."
                )
