import { adminIdParamsSchema } from '@cellport/shared/schemas/admin/common';
import {
  adminPaymentDetailResponseSchema, adminPaymentsQuerySchema, adminPaymentsResponseSchema,
  completePaymentRequestSchema, completePaymentResponseSchema, refundRequestSchema, refundResponseSchema,
} from '@cellport/shared/schemas/admin/payments';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import type { PaymentsAdminService } from './payments-admin.service.js';

export function registerPaymentsAdminRoutes(app: App, payments: PaymentsAdminService): void {
  const { read, money } = adminRateLimits;
  const params = adminIdParamsSchema;
  app.get('/payments', { config: read, schema: { querystring: adminPaymentsQuerySchema, response: { 200: adminPaymentsResponseSchema } } },
    async (r) => payments.search(r.query));
  app.get('/payments/:id', { config: read, schema: { params, response: { 200: adminPaymentDetailResponseSchema } } },
    async (r) => payments.detail(r.params.id));
  app.post('/payments/:id/refund', { config: money, schema: { params, body: refundRequestSchema, response: { 200: refundResponseSchema } } },
    async (r) => payments.refund(actorOf(r), r.params.id, r.body));
  app.post('/payments/:id/complete', { config: money, schema: { params, body: completePaymentRequestSchema, response: { 200: completePaymentResponseSchema } } },
    async (r) => payments.complete(actorOf(r), r.params.id, r.body.reason));
}
