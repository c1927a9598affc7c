import type { Invoice } from "../api/client";
import { formatMoney } from "../app";

export function InvoiceRow({ invoice }: { invoice: Invoice }) {
  return (
    <tr data-status={invoice.status}>
      <td>{invoice.customer}</td>
      <td>{formatMoney(invoice.amountCents, "EUR")}</td>
    </tr>
  );
}
