import type { FastifyRequest } from 'fastify';

/** The rate limit of the payment routes that start or complete a payment (per customer, else per address). */
export interface PaymentRateLimit {
  rateLimit: { max: number; timeWindow: string; keyGenerator: (r: FastifyRequest) => string };
}

export function paymentRateLimit(maxPerMinute: number): PaymentRateLimit {
  return { rateLimit: { max: maxPerMinute, timeWindow: '1 minute', keyGenerator: (r: FastifyRequest) => r.user?.userId ?? r.ip } };
}
