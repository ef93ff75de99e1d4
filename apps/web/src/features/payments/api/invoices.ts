import type { Invoice } from '@cellport/shared/schemas/payments';
import { queryOptions } from '@tanstack/react-query';
import { API_BASE } from '@cellport/shared/constants';
import { apiGet } from '../../../lib/api';

/** GET /invoices: a numbered invoice for every completed payment, newest first. */
export const invoicesQuery = queryOptions({
  queryKey: ['invoices'],
  queryFn: () => apiGet<{ data: Invoice[] }>('/invoices').then((r) => r.data),
});

/** GET /invoices/:id.pdf — the same invoice as a PDF file, printed in the language the dashboard shows. */
export const invoicePdfUrl = (id: string, lng: string) => `${API_BASE}/invoices/${encodeURIComponent(id)}.pdf?lng=${encodeURIComponent(lng)}`;
