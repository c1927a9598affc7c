import { ApiClient } from "./api/client";

export interface AppConfig {
  apiBaseUrl: string;
  currency: "EUR" | "GBP" | "USD";
}

export async function start(config: AppConfig): Promise<void> {
  const client = new ApiClient(config.apiBaseUrl);
  const invoices = await client.listInvoices({ status: "open" });
  const total = invoices.reduce((sum, invoice) => sum + invoice.amountCents, 0);
  document.title = `Larkspur — ${invoices.length} open (${formatMoney(total, config.currency)})`;
}

export function formatMoney(cents: number, currency: AppConfig["currency"]): string {
  return new Intl.NumberFormat("en-GB", { style: "currency", currency }).format(cents / 100);
}
