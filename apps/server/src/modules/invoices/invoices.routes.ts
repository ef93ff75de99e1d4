import { FALLBACK_LANGUAGE, isLanguage } from '@cellport/shared/constants';
import { invoiceFileParamsSchema, invoiceFileQuerySchema, invoicesResponseSchema } from '@cellport/shared/schemas/payments';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { readerLanguage } from '../../lib/request-language.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import type { InvoicesService } from './invoices.service.js';

/** GET /api/v1/invoices and GET /api/v1/invoices/:id.pdf (the customer's own only; another's answers 404). */
export function registerInvoices(app: App, ctx: AppContext, { invoices }: { invoices: InvoicesService }): void {

  app.get('/api/v1/invoices', { onRequest: requireUser, schema: { response: { 200: invoicesResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { userId } = currentUser(request);
      return { data: await invoices.list(userId, await readerLanguage(request, ctx.languages, userId)) };
    });

  // ':file' is '<uuid>.pdf'; the router cannot split a parameter at a dot, so it is checked here.
  // Printed, descriptions and lines too, in the reader's language: ?lng=en|ru|cn (the web's invoice links send the
  // page's language), else the customer's (users.language); an unknown value is ignored. A link opened in a new tab
  // carries no Accept-Language of ours, so the browser's own header is not used here.
  app.get('/api/v1/invoices/:file', {
    onRequest: requireUser,
    schema: { params: invoiceFileParamsSchema, querystring: invoiceFileQuerySchema },
  },
    async (request, reply) => {
      const m = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.pdf$/i.exec(request.params.file);
      const { userId } = currentUser(request);
      const { lng } = request.query;
      const stored = isLanguage(lng) ? lng : await invoices.customerLanguage(userId);
      const language = isLanguage(stored) ? stored : FALLBACK_LANGUAGE;
      const invoice = m ? await invoices.get(userId, m[1]!.toLowerCase(), language) : null;
      if (!invoice) throw new AppError('INVOICE_NOT_FOUND');
      const pdf = await renderInvoicePdf(invoice, { url: ctx.config.publicUrl }, language);
      reply.header('cache-control', 'private, no-store')
        .header('content-disposition', `inline; filename="${invoice.number}.pdf"`)
        .type('application/pdf');
      return reply.send(pdf);
    });
}
