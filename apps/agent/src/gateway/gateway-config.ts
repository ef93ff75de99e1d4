import { z } from 'zod';
import { envBool, envMetricsToken, envOptionalPort, parseEnv } from '@cellport/node-common/env';

/** A gateway setting that is missing or wrong; the message names it, and the gateway stops before serving. */
export class GatewayConfigError extends Error {}

const host = z.string().trim().min(1);

// `npm run gateway` on a public machine (docs/deploy-gateway.md, docs/decisions/031-gateway.md). The console's
// Gateways page shows the first two values for each gateway it knows.
export const gatewayConfigSchema = z.object({
  /** The gateway's id as the console shows it: tickets name the gateway they are for. */
  GATEWAY_ID: z.uuid({ error: 'is required: the id the console shows for this gateway (Inventory → Gateways)' }),
  /** The public half of the server's gateway trust key (console, Gateways): link tickets are checked with it. */
  GATEWAY_TRUST_KEY: z.string({ error: 'is required: the trust key the console shows on the Gateways page' })
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the 43-character trust key the console shows'),
  /** Where the hosts' agents connect (the gateway's link URL in the console points here). */
  GATEWAY_LINK_HOST: host.default('0.0.0.0'),
  GATEWAY_LINK_PORT: z.coerce.number().int().min(1).max(65535).default(7400),
  /** Where customers' connections are taken, on the same port numbers as the hosts' modems. */
  GATEWAY_LISTEN_HOST: host.default('0.0.0.0'),
  /** TLS for the link (PEM files); without them the link is plain TCP (put it behind TLS or a private network). */
  GATEWAY_TLS_CERT: z.string().trim().min(1).optional(),
  GATEWAY_TLS_KEY: z.string().trim().min(1).optional(),
  /**
   * Relay pooled connections in the kernel (decision 050): built on first start from its C source with the host's
   * compiler and Node's headers, into GATEWAY_DATA_DIR. Where it cannot be built the gateway says why and relays in
   * JavaScript.
   */
  GATEWAY_KERNEL_RELAY: envBool.default(true),
  GATEWAY_DATA_DIR: z.string().trim().min(1).default('./data/gateway'),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'debug', 'silent']).default('info'),
  /** Prometheus /metrics on this port (unset: nothing listens), on GATEWAY_METRICS_HOST, with METRICS_TOKEN. */
  GATEWAY_METRICS_PORT: envOptionalPort,
  GATEWAY_METRICS_HOST: host.default('127.0.0.1'),
  METRICS_TOKEN: envMetricsToken,
}).superRefine((c, ctx) => {
  if (Boolean(c.GATEWAY_TLS_CERT) !== Boolean(c.GATEWAY_TLS_KEY)) {
    ctx.addIssue({ code: 'custom', path: ['GATEWAY_TLS_KEY'], message: 'set both GATEWAY_TLS_CERT and GATEWAY_TLS_KEY, or neither' });
  }
});
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return parseEnv(gatewayConfigSchema, env, 'The gateway cannot start; fix these settings:', (message) => new GatewayConfigError(message));
}
