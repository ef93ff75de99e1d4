import { SPEED_TEST } from '@cellport/shared/schemas/host-protocol';
import { z } from 'zod';
import { envBool, envMetricsToken, envOptionalPort, parseEnv } from '@cellport/node-common/env';

/** A setting that is missing or wrong; the message names it, and the agent stops before serving anything. */
export class AgentConfigError extends Error {}

const bool = envBool;
const HOST_KEY = /^chk_[A-Za-z0-9_-]{16,96}$/;


// One schema over the environment. The three CELLPORT_/AGENT_DATA_DIR settings have no default on purpose: a
// stand-alone agent pointed at the wrong place must say so, not guess. README.md (apps/agent) has the same table.
export const agentConfigSchema = z.object({
  CELLPORT_SERVER_URL: z.url({ protocol: /^https?$/, error: 'must be the server\'s http(s) URL, e.g. https://proxies.example.com' }),
  /** One key per host this agent serves (a comma-separated list: the embedded demo serves every seeded host). */
  CELLPORT_HOST_KEY: z.string({ error: 'is required: issue one in the console (Hosts → Issue key) or with npm run admin -- host-key <host>' })
    .transform((v) => v.split(',').map((k) => k.trim()).filter(Boolean))
    .refine((keys) => keys.length > 0 && keys.every((k) => HOST_KEY.test(k)), 'must be a host key issued by the server (chk_…)'),
  AGENT_DATA_DIR: z.string({ error: 'is required: a directory where the agent keeps its last state and unsent traffic' }).min(1),
  /** Where the proxy ports listen. */
  AGENT_LISTEN_HOST: z.string().default('0.0.0.0'),
  /** Let customers reach loopback targets (the embedded demo, so a local test site can be reached). Off on real hosts. */
  AGENT_ALLOW_LOOPBACK: bool.default(false),
  /** Let customers reach private (RFC 1918, ULA) targets. Off: a customer could reach the farm's LAN. */
  AGENT_ALLOW_PRIVATE: bool.default(false),
  /** Further refused target ranges, comma-separated CIDRs (e.g. the modems' management networks). */
  AGENT_DENIED_CIDRS: z.string().default('').transform((v) => v.split(',').map((c) => c.trim()).filter(Boolean)),
  /** Target ports refused on every address, comma-separated (the operator's egress deny-list); empty: none. */
  AGENT_DENY_PORTS: z.string().default('25').transform((v, ctx) => {
    const ports = v.split(',').map((p) => p.trim()).filter(Boolean).map(Number);
    if (!ports.every((p) => Number.isInteger(p) && p >= 1 && p <= 65535)) ctx.addIssue({ code: 'custom', message: 'must be port numbers (1-65535), comma-separated, e.g. 25,465' });
    return ports;
  }),
  /** How often traffic is reported (samples stay 5-minute; a report adds to them). */
  AGENT_TRAFFIC_REPORT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Simulated modems: a rotation takes about this long. */
  AGENT_SIM_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(3000),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'debug', 'silent']).default('info'),
  /** On SIGTERM the ports stop taking connections and the open ones get this long to finish before they are cut. */
  AGENT_DRAIN_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
  /** The host's modems file (JSON or YAML). Unset: the modems are simulated, as the server's state says (the demo). */
  AGENT_MODEMS: z.string().trim().min(1).optional(),
  /** IP-echo URLs (plain-text answer with the caller's address), comma-separated. Default: the server's /api/v1/ip. */
  AGENT_IP_ECHO_URLS: z.string().optional().transform((v, ctx) => {
    const urls = (v ?? '').split(',').map((u) => u.trim()).filter(Boolean);
    for (const url of urls) {
      if (!/^https?:\/\/[^\s/]+/.test(url) || !URL.canParse(url)) ctx.addIssue({ code: 'custom', message: `${url} is not an http(s) URL` });
    }
    return urls;
  }),
  /** A rotation that gives the same IP is tried this many times in all before it is reported as a collision. */
  AGENT_ROTATE_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  /** Modems of the modems file are checked this often (0: not at all); see README, Health. */
  AGENT_HEALTH_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** The management API's answer and one request through the modem must come within this. */
  AGENT_HEALTH_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
  /** At most one automatic reboot (and one power cycle) of a modem in this long. */
  AGENT_REBOOT_MIN_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  /** The host's power-cycle command for a modem's USB port, e.g. `uhubctl -l {usbHub} -p {usbHubPort} -a cycle` (no shell). */
  AGENT_POWER_CYCLE_COMMAND: z.string().trim().min(1).max(500).optional(),
  AGENT_POWER_CYCLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
  /** The agent sets up each modem's routing table and rule itself (needs CAP_NET_ADMIN); see README, policy routing. */
  AGENT_POLICY_ROUTING: bool.default(false),
  /** The first modem's routing table (modem i of the file: this + i; its rule's priority: the table + 900). */
  AGENT_POLICY_ROUTING_TABLE: z.coerce.number().int().min(1).max(30_000)
    .refine((t) => t < 253 || t > 255, 'must not be 253, 254 or 255 (the default, main and local tables)').default(101),
  /**
   * Relay established tunnels in the kernel (decision 050, revised: splice() on a native thread), built on first start
   * from its C source with the host's compiler and Node's headers into AGENT_DATA_DIR; ports with a bandwidth cap stay
   * in JavaScript. Where it cannot be built the agent says why and relays in JavaScript.
   */
  AGENT_KERNEL_RELAY: bool.default(true),
  /** Each modem's speed test runs this often (0: never); see README, "Speed tests". */
  AGENT_SPEEDTEST_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(10_080).default(360),
  /** The first test of each modem waits this long after the start (the modems settle, customers reconnect). */
  AGENT_SPEEDTEST_FIRST_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** The speed-test target: GET ?bytes=N sends N bytes, POST counts the body. Default: the server's own. */
  AGENT_SPEEDTEST_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /** Bytes downloaded and uploaded by one test (at most 8 MiB each). */
  AGENT_SPEEDTEST_BYTES: z.coerce.number().int().min(16_384).max(8 * 1024 * 1024).default(2 * 1024 * 1024),
  /** A modem with more customer connections open than this is not tested then (asked again in 10 minutes). */
  AGENT_SPEEDTEST_MAX_CONNECTIONS: z.coerce.number().int().min(0).max(100_000).default(4),
  /** Where the UDP check's datagram goes (host:port; a DNS resolver or a UDP echo). Default: the server's host and port; "off": no check. */
  AGENT_UDP_CHECK_TARGET: z.string().trim().optional().refine((v) => !v || v === 'off' || /^(\[[^\]]+\]|[^:\s]+):\d{1,5}$/.test(v), 'must be host:port (e.g. 1.1.1.1:53) or off'),
  /**
   * Prometheus /metrics on this port (unset: nothing listens), on AGENT_METRICS_HOST, with METRICS_TOKEN (unset or
   * empty: /metrics answers 404), as the server's.
   */
  AGENT_METRICS_PORT: envOptionalPort,
  AGENT_METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  METRICS_TOKEN: envMetricsToken,
}).superRefine((config, ctx) => {
  if (config.AGENT_MODEMS && config.CELLPORT_HOST_KEY.length > 1) {
    ctx.addIssue({ code: 'custom', path: ['AGENT_MODEMS'], message: 'a modems file belongs to one host: give CELLPORT_HOST_KEY one key' });
  }
  if (config.AGENT_POLICY_ROUTING && !config.AGENT_MODEMS) {
    ctx.addIssue({ code: 'custom', path: ['AGENT_POLICY_ROUTING'], message: 'routes the modems of a modems file: set AGENT_MODEMS too' });
  }
}).transform((config) => ({
  ...config,
  AGENT_IP_ECHO_URLS: config.AGENT_IP_ECHO_URLS.length ? config.AGENT_IP_ECHO_URLS
    : [new URL('/api/v1/ip', config.CELLPORT_SERVER_URL).toString()],
  AGENT_SPEEDTEST_URL: config.AGENT_SPEEDTEST_URL ?? new URL(SPEED_TEST.path, config.CELLPORT_SERVER_URL).toString(),
  // The server answers UDP checks on its own port number (UDP_ECHO).
  AGENT_UDP_CHECK_TARGET: config.AGENT_UDP_CHECK_TARGET === 'off' ? null
    : config.AGENT_UDP_CHECK_TARGET || defaultUdpTarget(config.CELLPORT_SERVER_URL),
}));

function defaultUdpTarget(serverUrl: string): string {
  const url = new URL(serverUrl);
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
}
export type AgentConfig = z.infer<typeof agentConfigSchema>;

export function loadAgentConfig(env: NodeJS.ProcessEnv = process.env): AgentConfig {
  return parseEnv(agentConfigSchema, env, 'The agent cannot start; fix these settings:', (message) => new AgentConfigError(message));
}
