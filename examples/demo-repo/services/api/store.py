"""A tiny in-memory invoice store (the real one talks to Postgres)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace


@dataclass(frozen=True)
class Invoice:
    id: str
    customer: str
    amount_cents: int
    status: str = "open"

    def paid(self) -> Invoice:
        return replace(self, status="paid")

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


class InvoiceStore:
    def __init__(self) -> None:
        self._items: dict[str, Invoice] = {}

    def get(self, invoice_id: str) -> Invoice | None:
        return self._items.get(invoice_id)

    def list(self, status: str | None = None) -> list[Invoice]:
        return [i for i in self._items.values() if status is None or i.status == status]

    def save(self, invoice: Invoice) -> None:
        self._items[invoice.id] = invoice
