export interface Invoice {
  id: string;
  customer: string;
  amountCents: number;
  status: "draft" | "open" | "paid";
}

export class ApiClient {
  constructor(private readonly baseUrl: string) {}

  async listInvoices(filter: { status?: Invoice["status"] } = {}): Promise<Invoice[]> {
    const query = filter.status ? `?status=${encodeURIComponent(filter.status)}` : "";
    const response = await fetch(`${this.baseUrl}/invoices${query}`);
    if (!response.ok) {
      throw new Error(`listInvoices failed: ${response.status}`);
    }
    return (await response.json()) as Invoice[];
  }
}
