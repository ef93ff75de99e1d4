import { isLanguage } from '@cellport/shared';
import { MCP_PATH } from '@cellport/shared/schemas/mcp';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../composition.js';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { requestLanguage } from '../../lib/request-language.js';
import { paymentRateLimit } from '../../lib/payment-rate-limit.js';
import { errorMessage } from './mcp-errors.js';
import { FINGERPRINT_CHECKS_PER_MINUTE } from '../fingerprint/index.js';
import { createMcpServer } from './mcp-tools.js';

/** JSON-RPC's "server error" range; -32001 is the SDK's and the clients' usual code for a refused credential. */
const UNAUTHORIZED_RPC = -32001;

/** JSON-RPC messages (tool calls and the rest) per customer per minute. */
const MCP_CALLS_PER_MINUTE = 600;

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade']);

const rpcError = (code: number, message: string, data?: Record<string, unknown>) =>
  ({ jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id: null });

/**
 * The MCP server for AI agents (issue 16, decision 026): Streamable HTTP at POST /mcp, stateless (each request
 * gets its own server and transport, so any instance answers any request), JSON answers rather than SSE streams.
 * Only an API key authenticates (`Authorization: Bearer cpk_…`); the session cookie does not, so no browser page can
 * drive it, which is why it accepts cross-site callers (MCP inspectors, desktop apps).
 */
export function registerMcp(app: App, ctx: AppContext, services: Services): void {
  const { max, timeWindow, keyGenerator } = paymentRateLimit(ctx.config.RATE_LIMIT_PAYMENTS_PER_MINUTE).rateLimit;
  // buy_ports and renew_ports count against the payment routes' limit, per customer.
  const paymentLimit = app.createRateLimit({ max, timeWindow, keyGenerator });
  // check_port_fingerprint: as many a minute per customer as the REST route allows (a limiter of its own).
  const fingerprintLimit = app.createRateLimit({ max: FINGERPRINT_CHECKS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: (r) => r.user?.userId ?? r.ip });
  // Per customer, each JSON-RPC message one call: a batch of 50 tool calls counts 50, not one request.
  const callLimit = app.createRateLimit({ max: MCP_CALLS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: (r) => r.user?.userId ?? r.ip });

  /** Resolves the bearer key into request.user (replacing any cookie session) or answers 401. */
  async function requireApiKey(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const auth = request.headers.authorization;
    const user = auth?.startsWith('Bearer ') ? await services.apiKeys.resolve(auth.slice(7).trim()) : null;
    request.user = user;
    if (!user) {
      // A key that was sent and is wrong says so; no key at all says how to send one.
      const code = auth?.startsWith('Bearer ') ? 'API_KEY_INVALID' : 'API_KEY_REQUIRED';
      const message = errorMessage(requestLanguage(request), code);
      await reply.code(401).header('www-authenticate', 'Bearer realm="cellport", error="invalid_token"')
        .header('cache-control', 'no-store').send(rpcError(UNAUTHORIZED_RPC, message, { code }));
    }
  }

  app.post(MCP_PATH, {
    onRequest: requireApiKey,
    // Rate-limited per JSON-RPC message in the handler (callLimit). bodyLimit stays the app's 1 MB.
    config: { crossSite: true },
    schema: {
      hide: true,
      summary: 'MCP (Model Context Protocol) over Streamable HTTP, for AI agents',
      description: 'JSON-RPC 2.0 messages of the Model Context Protocol; authenticate with an API key as bearer. '
        + 'See "Connect an AI agent (MCP)" on the Documentation page.',
    },
  }, async (request, reply) => {
    const user = request.user!;
    const calls = Array.isArray(request.body) ? Math.max(1, request.body.length) : 1;
    for (let i = 0; i < calls; i++) {
      const limit = await callLimit(request);
      if (!limit.isAllowed && limit.isExceeded) {
        const message = errorMessage(requestLanguage(request), 'RATE_LIMITED');
        return reply.code(429).header('retry-after', String(limit.ttlInSeconds)).header('cache-control', 'no-store')
          .send(rpcError(-32000, message, { code: 'RATE_LIMITED', retryAfter: limit.ttlInSeconds }));
      }
    }
    const stored = await services.invoices.customerLanguage(user.userId);
    const lng = isLanguage(stored) ? stored : requestLanguage(request);
    const server = createMcpServer(ctx, services, {
      userId: user.userId, lng, log: request.log,
      // requireApiKey let only API-key callers in, so the grant is there.
      grant: user.apiKey!,
      recordSpend: (tx, paymentId) => services.apiKeys.recordSpend(tx, user.apiKey!, paymentId),
      async checkPaymentLimit() {
        const limit = await paymentLimit(request);
        if (!limit.isAllowed && limit.isExceeded) throw new AppError('RATE_LIMITED', 429, undefined, { retryAfter: limit.ttlInSeconds });
      },
      async checkFingerprintLimit() {
        const limit = await fingerprintLimit(request);
        if (!limit.isAllowed && limit.isExceeded) throw new AppError('RATE_LIMITED', 429, undefined, { retryAfter: limit.ttlInSeconds });
      },
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      // The transport reads Accept, Content-Type and the MCP headers; the body is Fastify's, already parsed.
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (HOP_BY_HOP.has(name) || value === undefined) continue;
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const response = await transport.handleRequest(
        new Request(new URL(MCP_PATH, ctx.config.publicUrl), { method: 'POST', headers }),
        { parsedBody: request.body, authInfo: { token: '', clientId: user.userId, scopes: [] } },
      );
      reply.code(response.status).header('cache-control', 'no-store');
      response.headers.forEach((value, name) => { reply.header(name, value); });
      const body = await response.text();
      return reply.send(body === '' ? undefined : body);
    } finally {
      await server.close();
    }
  });

  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE). Clients read 405 as "none".
  app.route({
    method: ['GET', 'DELETE'], url: MCP_PATH, onRequest: requireApiKey, config: { crossSite: true },
    schema: { hide: true },
    handler: async (_request, reply) => reply.code(405).header('allow', 'POST')
      .send(rpcError(-32000, 'Method not allowed: this MCP server is stateless; send JSON-RPC messages with POST.')),
  });
}
