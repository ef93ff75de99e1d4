import * as z from 'zod/mini';
import { buyRequestSchema, portParamsSchema, portPatchRequestSchema, portsQuerySchema, renewRequestSchema } from './catalog.js';
import { portFingerprintPatchSchema } from './fingerprint.js';
import { text } from './text.js';
import { trafficQuerySchema } from './traffic.js';

// The MCP server for AI agents (issue 16): JSON-RPC over Streamable HTTP at MCP_PATH, authenticated with an API key.
// Each tool's input is the schema of the REST route doing the same thing; a tool about one port takes the route's
// path parameter (`id`) beside the body's fields, and the money tools take the Idempotency-Key header as a field.

export * from './mcp-constants.js';

/** The REST Idempotency-Key header as a field: a retry with the same key returns the first answer and changes nothing. */
const idempotency = {
  idempotency_key: z.optional(text().check(z.minLength(1), z.maxLength(200))),
};

/** list_ports: GET /api/v1/modems's tag filter (the language comes from the key's customer). */
export const mcpListPortsInputSchema = z.pick(portsQuerySchema, { tag: true });
/** get_port, rotate_port: POST /api/v1/modems/:id/rotate's params. */
export const mcpPortInputSchema = portParamsSchema;
/** update_port: PATCH /api/v1/modems/:id, params and body. */
export const mcpUpdatePortInputSchema = z.extend(portParamsSchema, portPatchRequestSchema.shape);
/** set_port_fingerprint: PATCH /api/v1/modems/:id with only `fingerprint` (null: the operator's default again). */
export const mcpSetFingerprintInputSchema = z.extend(portParamsSchema, { preset: portFingerprintPatchSchema });
/** quote_purchase: the body of POST /api/v1/payment/balance/buy, priced and not charged. */
export const mcpQuoteInputSchema = buyRequestSchema;
/** buy_ports: POST /api/v1/payment/balance/buy. */
export const mcpBuyInputSchema = z.extend(buyRequestSchema, idempotency);
/** renew_ports: POST /api/v1/payment/balance/renew. */
export const mcpRenewInputSchema = z.extend(renewRequestSchema, idempotency);
/** get_traffic: GET /api/v1/traffic's query. */
export const mcpTrafficInputSchema = trafficQuerySchema;
/** Tools without input (get_balance, list_invoices, list_tariffs: GET routes without a query). */
export const mcpNoInputSchema = z.object({});

/** What quote_purchase answers: the price the same purchase would be charged now, and whether the balance covers it. */
export const mcpQuoteSchema = z.object({
  /** Micro-USD after any coupon ("12500000" = $12.50). */
  amount: text(),
  /** The same in dollars, "12.50". */
  amountUsd: text(),
  currency: z.literal('USD'),
  description: text(),
  /** The USDT balance in micro-units, which a purchase is paid from. */
  balance: text(),
  enoughBalance: z.boolean(),
});
export type McpQuote = z.infer<typeof mcpQuoteSchema>;
