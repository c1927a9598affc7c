"""Field types shared by the SkillSpec models: strict objects, text, ids, bounded numbers.

The reference implementation reads every YAML scalar as text where its
grammar expects a string (``id: 2024`` is the string ``"2024"``), so
:data:`Text` converts numbers and booleans to their source text; ``null``
stays an error there. Typed objects forbid unknown fields.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt, StrictStr

from ruleweave.steering.yamldoc import scalar_text

Text = Annotated[StrictStr, BeforeValidator(scalar_text)]
"""A string; a number or boolean scalar is read as its source text (like the reference)."""

Ids = tuple[Text, ...]
"""A sequence of identifiers or strings (a YAML list)."""

Rank = Annotated[StrictInt, Field(ge=-(2**63), le=2**63 - 1)]
"""A signed 64-bit integer (the reference's ``i64``)."""

Count = Annotated[StrictInt, Field(ge=0, le=2**32 - 1)]
"""An unsigned 32-bit integer (the reference's ``u32``)."""

SafetyClass = Literal[
    "read_only",
    "local_read",
    "local_write",
    "network_read",
    "network_write",
    "browser_attach",
    "credential_request",
    "destructive",
]
"""How risky a command, choice or dependency is."""

UseKind = Literal[
    "route", "rule", "state", "elicitation", "dependency", "command", "code", "artifact", "recipe", "snippet"
]
"""What an import's or resource's ``used_by`` entry points at."""


class StrictModel(BaseModel):
    """Frozen, and unknown fields are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid")
