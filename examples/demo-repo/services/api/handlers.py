"""HTTP handlers for the invoices API."""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus

from .store import InvoiceStore


@dataclass(frozen=True)
class Response:
    status: HTTPStatus
    body: dict[str, object]


def list_invoices(store: InvoiceStore, status: str | None = None) -> Response:
    """Return the invoices, optionally filtered by status."""
    if status is not None and status not in {"draft", "open", "paid"}:
        return Response(HTTPStatus.BAD_REQUEST, {"error": f"unknown status {status!r}"})
    invoices = store.list(status=status)
    return Response(HTTPStatus.OK, {"invoices": [invoice.as_dict() for invoice in invoices]})


def mark_paid(store: InvoiceStore, invoice_id: str) -> Response:
    """Mark one invoice as paid; 404 when it does not exist."""
    invoice = store.get(invoice_id)
    if invoice is None:
        return Response(HTTPStatus.NOT_FOUND, {"error": "no such invoice"})
    store.save(invoice.paid())
    return Response(HTTPStatus.OK, {"invoice": invoice_id, "status": "paid"})
