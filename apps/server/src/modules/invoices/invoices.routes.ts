import { isLanguage } from '@cellport/shared/constants';
import { invoiceFileParamsSchema, invoiceFileQuerySchema, invoicesResponseSchema } from '@cellport/shared/schemas/payments';
import type { Services } from '../../composition.js';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { renderInvoicePdf } from './invoice-pdf.js';

/** GET /api/v1/invoices and GET /api/v1/invoices/:id.pdf (the customer's own only; another's answers 404). */
export function registerInvoices(app: App, ctx: AppContext, { invoices }: Services): void {

  app.get('/api/v1/invoices', { onRequest: requireUser, schema: { response: { 200: invoicesResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await invoices.list(currentUser(request).userId) };
    });

  // ':file' is '<uuid>.pdf'; the router cannot split a parameter at a dot, so it is checked here.
  // Printed in the customer's language (users.language); ?lng=en|ru|cn overrides it, an unknown value is ignored.
  app.get('/api/v1/invoices/:file', {
    onRequest: requireUser,
    schema: { params: invoiceFileParamsSchema, querystring: invoiceFileQuerySchema },
  },
    async (request, reply) => {
      const m = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.pdf$/i.exec(request.params.file);
      const invoice = m ? await invoices.get(currentUser(request).userId, m[1]!.toLowerCase()) : null;
      if (!invoice) throw new AppError('INVOICE_NOT_FOUND', 404);
      const { lng } = request.query;
      const language = isLanguage(lng) ? lng : await invoices.customerLanguage(currentUser(request).userId);
      const pdf = await renderInvoicePdf(invoice, { name: 'Cellport', url: ctx.config.publicUrl }, language);
      reply.header('cache-control', 'private, no-store')
        .header('content-disposition', `inline; filename="${invoice.number}.pdf"`)
        .type('application/pdf');
      return reply.send(pdf);
    });
}
