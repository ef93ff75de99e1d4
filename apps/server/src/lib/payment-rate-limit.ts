import type { FastifyRequest } from 'fastify';

/**
 * The rate limit of the routes that start or complete a payment (per customer, else per address): the payments' own
 * and the purchases' from the balance. Here, not in a domain, so neither domain's face imports the other's.
 */
export interface PaymentRateLimit {
  rateLimit: { max: number; timeWindow: string; keyGenerator: (r: FastifyRequest) => string };
}

export function paymentRateLimit(maxPerMinute: number): PaymentRateLimit {
  return { rateLimit: { max: maxPerMinute, timeWindow: '1 minute', keyGenerator: (r: FastifyRequest) => r.user?.userId ?? r.ip } };
}
