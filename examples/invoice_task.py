"""What the framework examples share: the demo repository, the task, and the two fixes a model writes.

``langchain_agent.py``, ``openai_agents_agent.py`` and ``pydantic_ai_agent.py`` script the
same session: a model asked to fix a cent-off invoice total first writes money through
``float()`` (the demo repository's streamed rule ``no-float-money`` stops that), then the
integer-cents fix.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent / "demo-repo"
SYSTEM = "You are a careful coding agent working on the Larkspur repository."
TASK = "Some invoice totals are off by a cent. Find out why and fix services/api/handlers.py."

FLOAT_FIX = '''\
def invoice_total(store: InvoiceStore, invoice_id: str) -> Response:
    """The invoice's total."""
    invoice = store.get(invoice_id)
    total = float(amount) for amount in invoice.lines
'''
CENTS_FIX = '''\
def invoice_total(store: InvoiceStore, invoice_id: str) -> Response:
    """The invoice's total, in integer cents."""
    invoice = store.get(invoice_id)
    if invoice is None:
        return Response(HTTPStatus.NOT_FOUND, {"error": "no such invoice"})
    return Response(HTTPStatus.OK, {"total_cents": sum(line.amount_cents for line in invoice.lines)})
'''
