from http import HTTPStatus

from services.api.handlers import list_invoices, mark_paid
from services.api.store import Invoice, InvoiceStore


def test_unknown_status_is_rejected() -> None:
    assert list_invoices(InvoiceStore(), status="lost").status is HTTPStatus.BAD_REQUEST


def test_mark_paid() -> None:
    store = InvoiceStore()
    store.save(Invoice("inv-1", "Acme", 12_500))
    assert mark_paid(store, "inv-1").status is HTTPStatus.OK
    invoice = store.get("inv-1")
    assert invoice is not None
    assert invoice.status == "paid"
