import type { Language } from '@cellport/shared';
import {
  MCP_TOOLS, mcpBuyInputSchema, mcpListPortsInputSchema, mcpNoInputSchema, mcpPortInputSchema, mcpQuoteInputSchema, mcpRenewInputSchema, mcpSetFingerprintInputSchema,
  mcpTrafficInputSchema, mcpUpdatePortInputSchema, type McpQuote,
} from '@cellport/shared/schemas/mcp';
import { microToDollars } from '@cellport/shared/schemas/payments';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../../composition.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { ApiKeyGrant } from '../../plugins/session.js';
import { presetEntries } from '../fingerprint/index.js';
import { trafficReport } from '../traffic/index.js';
import { toolFailure } from './mcp-errors.js';

/** The customer an MCP request acts for (resolved from its API key), and what their money tools are limited by. */
export interface McpCaller {
  userId: string;
  lng: Language;
  /** Throws RATE_LIMITED past the payment routes' limit (buy and renew count against it as on REST). */
  checkPaymentLimit(): Promise<void>;
  log: FastifyBaseLogger;
  /** Throws RATE_LIMITED past the fingerprint check's limit per customer (shared with the REST route's). */
  checkFingerprintLimit(): Promise<void>;
  /** The key's scope and cap: read-only keys cannot change anything, only 'full' keys spend. */
  grant: ApiKeyGrant;
  /** Records a purchase's spending against the key's monthly cap, in the purchase's transaction. */
  recordSpend(tx: Tx, paymentId: string): Promise<void>;
}

const INSTRUCTIONS = 'Cellport sells mobile (4G/5G modem) proxy ports. Money amounts are strings of integer micro-USD '
  + '("12500000" = $12.50); purchases and renewals are paid from the USDT balance (get_balance). Before buy_ports, '
  + 'call quote_purchase with the same input and confirm the price; pass an idempotency_key to buy_ports and '
  + 'renew_ports so a retry never pays twice. list_tariffs gives the ids buy_ports needs.';

const READ = { readOnlyHint: true, openWorldHint: false } as const;
/** Spends the customer's money: clients should ask the person before calling (MCP's destructiveHint). */
const SPENDS = { destructiveHint: true, idempotentHint: true, openWorldHint: false } as const;

/**
 * One MCP server per request (stateless Streamable HTTP), with the tools bound to the key's customer. Every tool
 * calls the service its REST route calls, so the same money rules, idempotency and limits hold, and fails with the
 * route's error code and message in the customer's language.
 */
export function createMcpServer(ctx: AppContext, services: Services, caller: McpCaller): McpServer {
  const { userId, lng } = caller;
  const server = new McpServer({ name: 'cellport', version: '1.0.0' }, { instructions: INSTRUCTIONS });

  const run = async (work: () => Promise<Record<string, unknown>>): Promise<CallToolResult> => {
    try {
      const value = await work();
      return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
    } catch (err) {
      const failure = toolFailure(err, lng);
      if (failure.status >= 500) caller.log.error({ err }, 'MCP tool failed');
      return {
        isError: true,
        content: [{ type: 'text', text: `${failure.message} (${failure.code})` }],
        structuredContent: { error: failure.message, code: failure.code, ...failure.fields },
      };
    }
  };
  /** A write changed the customer's ports: their kept lists (GET /api/v1/modems) are dropped now, as REST writes do. */
  const changed = <T>(value: T): T => { services.portsLists.invalidate(userId); return value; };
  const mayWrite = () => { if (caller.grant.scope === 'read') throw new AppError('API_KEY_READ_ONLY'); };
  const maySpend = () => { mayWrite(); if (caller.grant.scope !== 'full') throw new AppError('API_KEY_CANNOT_SPEND'); };
  const onePort = async (id: string) => {
    const port = (await services.ports.list(userId, lng)).find((p) => p._id === id);
    if (!port) throw notFound();
    return port;
  };

  server.registerTool(MCP_TOOLS.listPorts, {
    title: 'List ports',
    description: 'List your proxy ports: id, name, host, HTTP and SOCKS5 ports, login, password, whitelist, current '
      + 'external IP, rotation interval, status, expiry, tags and note. Give a tag to list only the ports that carry it.',
    inputSchema: mcpListPortsInputSchema, annotations: READ,
  }, ({ tag }) => run(async () => ({ ports: tag ? await services.ports.listTagged(userId, lng, tag) : await services.ports.list(userId, lng) })));

  server.registerTool(MCP_TOOLS.getPort, {
    title: 'Show a port',
    description: 'Show one of your proxy ports by its id (from list_ports).',
    inputSchema: mcpPortInputSchema, annotations: READ,
  }, ({ id }) => run(async () => ({ port: await onePort(id) })));

  server.registerTool(MCP_TOOLS.rotatePort, {
    title: 'Rotate a port\'s IP',
    description: 'Give a port a new external IP now (its modem reconnects; takes seconds). Returns the old and the '
      + 'new IP. A dedicated port can be rotated once a minute; a shared port only rotates on its modem\'s schedule '
      + '(see nextRotationAt) and is refused.',
    inputSchema: mcpPortInputSchema, annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }, ({ id }) => run(async () => { mayWrite(); return changed({ ...await services.rotation.rotateOwnPort(userId, id) }); }));

  server.registerTool(MCP_TOOLS.updatePort, {
    title: 'Change a port\'s settings',
    description: 'Change a port\'s settings; only the fields given change. login and password are the proxy '
      + 'credentials; whitelist is a list of IPs or CIDRs allowed without credentials ([] = credentials only); '
      + 'rotationInterval is automatic rotation in minutes (0 = off; dedicated ports only); modem_name; autoRenew; '
      + 'tags (replaces them all, e.g. ["scraper-eu"]; [] removes them); note ("" removes it). '
      + 'Returns the port as it is now.',
    inputSchema: mcpUpdatePortInputSchema, annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }, ({ id, ...patch }) => run(async () => {
    mayWrite();
    // Turning auto-renew on commits the balance to future renewals: spending, which only a 'full' key may start.
    if (patch.autoRenew === true) maySpend();
    return changed({ port: await services.ports.update(userId, id, patch, lng) });
  }));

  server.registerTool(MCP_TOOLS.listFingerprintPresets, {
    title: 'OS fingerprint presets',
    description: 'The OS fingerprint presets a port can take (native, windows, macos, ios, android): what a site reading '
      + 'the first packet of each connection sees (TTL, window, scale, MSS, TCP option layout) and the p0f label and '
      + 'JA4T each should produce, with a name and description in your language.',
    inputSchema: mcpNoInputSchema, annotations: READ,
  }, () => run(() => Promise.resolve({ presets: presetEntries(lng) })));

  server.registerTool(MCP_TOOLS.setPortFingerprint, {
    title: 'Set a port\'s OS fingerprint',
    description: 'Make a port\'s new connections look like another OS to sites that read TCP/IP fingerprints: preset is '
      + 'one of list_fingerprint_presets\' ids, or null to follow the operator\'s default again. Applies to new '
      + 'connections within seconds. Refused when the port\'s host cannot apply presets (see fingerprint.available on '
      + 'the port). Returns the port as it is now.',
    inputSchema: mcpSetFingerprintInputSchema, annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }, ({ id, preset }) => run(async () => {
    mayWrite();
    return changed({ port: await services.ports.update(userId, id, { fingerprint: preset }, lng) });
  }));

  server.registerTool(MCP_TOOLS.checkPortFingerprint, {
    title: 'What a site sees',
    description: 'Open a connection through the port to the fingerprint echo and report what it saw of the first packet '
      + '(initial TTL, window, scale, MSS, option layout, p0f label, JA4T), each against the port\'s active preset, '
      + 'and whether they match. A few checks a minute.',
    inputSchema: mcpPortInputSchema, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  }, ({ id }) => run(async () => {
    mayWrite();
    await caller.checkFingerprintLimit();
    return { ...await services.fingerprintCheck.check(userId, id) };
  }));

  server.registerTool(MCP_TOOLS.renewPorts, {
    title: 'Renew ports',
    description: 'Extend your ports, paid from the USDT balance (charges money). basket maps a port id to '
      + '{"periods": n} (whole tariff periods) or {"days": n}. Optional coupon. Pass an idempotency_key (any unique '
      + 'string) so that a retry returns the first answer instead of paying twice.',
    inputSchema: mcpRenewInputSchema, annotations: SPENDS,
  }, ({ idempotency_key, ...req }) => run(async () => {
    maySpend();
    await caller.checkPaymentLimit();
    const res = await services.purchases.renew(userId, req, { idempotencyKey: idempotency_key, lng, afterCharge: caller.recordSpend });
    ctx.invoiceNumbering.kick();
    return changed(res.data);
  }));

  server.registerTool(MCP_TOOLS.quotePurchase, {
    title: 'Price a purchase (dry run)',
    description: 'Price a purchase without buying: the same input as buy_ports. Returns the amount that would be '
      + 'charged now (after the coupon), your balance and whether it is enough. Nothing is charged or reserved.',
    inputSchema: mcpQuoteInputSchema, annotations: READ,
  }, (req) => run(async () => {
    const [quote, balance] = await Promise.all([
      services.orderPricing.price(userId, req, null, lng),
      services.ledger.balance(userId, 'usdt'),
    ]);
    const answer: McpQuote = {
      amount: quote.amount.toString(), amountUsd: microToDollars(quote.amount), currency: 'USD',
      description: quote.description, balance: balance.toString(), enoughBalance: balance >= quote.amount,
    };
    return answer;
  }));

  server.registerTool(MCP_TOOLS.buyPorts, {
    title: 'Buy ports',
    description: 'Buy new proxy ports, paid from the USDT balance (charges money: call quote_purchase first). '
      + 'tariff_id, country_id and isShared must be those of a tariff from list_tariffs; rotationInterval in minutes '
      + '(0 = on demand); modemCount 1-50; optional carrier_id, region_id, coupon. Pass an idempotency_key (any '
      + 'unique string) so that a retry returns the first purchase instead of buying twice. Returns the payment and '
      + 'the new ports with their credentials.',
    inputSchema: mcpBuyInputSchema, annotations: SPENDS,
  }, ({ idempotency_key, ...req }) => run(async () => {
    maySpend();
    await caller.checkPaymentLimit();
    const res = await services.purchases.buy(userId, req, { idempotencyKey: idempotency_key, lng, afterCharge: caller.recordSpend });
    ctx.invoiceNumbering.kick();
    return changed(res.data);
  }));

  server.registerTool(MCP_TOOLS.getBalance, {
    title: 'Balance',
    description: 'Your balances: usdt in micro-USD (what purchases and renewals are paid from) with its dollar '
      + 'amount, and btc in satoshi.',
    inputSchema: mcpNoInputSchema, annotations: READ,
  }, () => run(async () => {
    const b = await services.ledger.balances(userId);
    return { usdt: { balance: b.usdt.toString(), usd: microToDollars(b.usdt) }, btc: { balance: b.btc.toString() } };
  }));

  server.registerTool(MCP_TOOLS.getTraffic, {
    title: 'Traffic',
    description: 'Bytes in and out per port between from and to (ISO-8601 times, at most 93 days apart), by hour or '
      + 'day (granularity), optionally for one port_id; with totals.',
    inputSchema: mcpTrafficInputSchema, annotations: READ,
  }, (q) => run(() => trafficReport(services.trafficRepository, userId, q, lng)));

  server.registerTool(MCP_TOOLS.listInvoices, {
    title: 'Invoices',
    description: 'Your invoices, newest first: number, date, lines (in your language), amounts in micro-USD.',
    inputSchema: mcpNoInputSchema, annotations: READ,
  }, () => run(async () => ({ invoices: await services.invoices.list(userId, lng) })));

  server.registerTool(MCP_TOOLS.listTariffs, {
    title: 'Tariffs',
    description: 'What can be bought: countries (with carriers and regions) and tariffs (id, country_id, isShared, '
      + 'period, price in micro-USD, rotationInterval) — the ids buy_ports and quote_purchase take.',
    inputSchema: mcpNoInputSchema, annotations: READ,
  }, () => run(async () => {
    const [countries, tariffs] = await Promise.all([services.catalog.countries(lng), services.catalog.tariffs()]);
    return { countries, tariffs };
  }));

  return server;
}
