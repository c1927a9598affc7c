"""The parcel tracker API."""

from __future__ import annotations


def health() -> dict[str, str]:
    """Liveness probe."""
    return {"status": "ok"}
