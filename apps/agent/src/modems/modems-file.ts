import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { AgentConfigError } from '../config.js';
import { USB_PORT } from '../runtime/health/power-cycle.js';

// The host's modems file (AGENT_MODEMS, JSON or YAML): which modems this host drives, how to reach each one's
// management API, and which egress binding its traffic leaves from. Validated whole at start: an error names the
// entry and the field, and the agent does not start half configured.

const IFACE = /^[A-Za-z0-9_.:@-]{1,15}$/;
/** An IP address (the modem's source address on this host) or an interface name whose IPv4 address is used. */
const egress = z.string({ error: 'is required: the interface name (eth1, wwan0) or the source address the modem\'s traffic leaves from' })
  .trim().refine((v) => isIP(v) !== 0 || IFACE.test(v), 'must be an IP address or an interface name such as eth1 or wwan0');
const imei = z.string().trim().regex(/^\d{14,16}$/, 'must be the modem\'s IMEI (14 to 16 digits)');
const name = z.string().trim().min(1).max(64).optional();
/** The modem's USB port (1-1.4, as under /sys/bus/usb/devices), for the power-cycle command's placeholders. */
const usbPort = z.string().trim().regex(USB_PORT, 'must be the modem\'s USB port as Linux names it, e.g. 1-1.4 (ls /sys/bus/usb/devices)').optional();
/** This modem's power-cycle command (argv; a string is split on spaces, never run by a shell). Overrides AGENT_POWER_CYCLE_COMMAND. */
const COMMAND = 'must be a command: a list of its arguments, or one line split on spaces (no shell)';
const powerCycle = z.union([
  z.string().trim().min(1, COMMAND).max(500),
  z.array(z.string().min(1, COMMAND).max(200)).min(1, COMMAND).max(30),
], { error: COMMAND }).optional();
const recovery = { usbPort, powerCycle };
/** The next hop of the modem's policy routing (AGENT_POLICY_ROUTING): a HiLink's own address, usually its management host. */
const gateway = z.ipv4({ error: 'must be the IPv4 address the modem\'s traffic is routed through, e.g. 192.168.8.1' }).optional();

const hilinkEntry = z.strictObject({
  driver: z.literal('hilink'),
  name,
  /** The dongle's web address, each dongle on its own subnet (192.168.8.1, 192.168.18.1, …). */
  management: z.url({ protocol: /^https?$/, error: 'must be the dongle\'s web address, e.g. http://192.168.8.1' }),
  egress,
  username: z.string().min(1).max(64).default('admin'),
  /** Only for password-protected devices (B-series routers, E8372 with a login). */
  password: z.string().min(1).max(128).optional(),
  gateway,
  ...recovery,
});

const modemManagerEntry = z.strictObject({
  driver: z.literal('modemmanager'),
  name,
  /** mmcli's index (`mmcli -L`); it changes when the modem re-enumerates, so `match` is steadier. */
  modem: z.number({ error: 'must be mmcli\'s modem index, a number (mmcli -L)' }).int().min(0).optional(),
  match: z.strictObject({ imei }).optional(),
  egress,
  /** Used when the modem has no bearer to reconnect (mmcli --simple-connect). */
  apn: z.string().min(1).max(100).optional(),
  password: z.string().min(1).max(128).optional(),
  /** Usually none: a wwan interface is point-to-point. */
  gateway,
  ...recovery,
}).refine((e) => (e.modem === undefined) !== (e.match === undefined), {
  message: 'give either modem (mmcli\'s index) or match: { imei }, one of them',
});

const simulatedEntry = z.strictObject({
  driver: z.literal('simulated'),
  name,
  imei,
  /**
   * A loopback address (127.0.x.y); without it the modem takes a free one. Never 127.0.0.1: the server takes that
   * address for the person at its machine (the development outbox), and customers' traffic would come from it.
   */
  egress: z.ipv4({ error: 'must be a loopback address other than 127.0.0.1, e.g. 127.0.5.1' }).trim()
    .refine((v) => v.startsWith('127.') && v !== '127.0.0.1', 'must be a loopback address other than 127.0.0.1, e.g. 127.0.5.1').optional(),
  ...recovery,
});

const entrySchema = z.discriminatedUnion('driver', [hilinkEntry, modemManagerEntry, simulatedEntry], {
  error: 'must be hilink, modemmanager or simulated',
});
export const modemsFileSchema = z.strictObject({
  modems: z.array(entrySchema, { error: 'must be a list of modems' }).min(1, 'must list at least one modem'),
}).superRefine((file, ctx) => {
  const seen = new Map<string, number>();
  file.modems.forEach((entry, i) => {
    const keys: [string, string][] = [];
    if (entry.egress) keys.push(['egress', `egress ${entry.egress}`]);
    // Refinements run on entries with issues of their own too: a management address that is no URL is named there.
    if (entry.driver === 'hilink' && URL.canParse(entry.management)) keys.push(['management', `management ${new URL(entry.management).host}`]);
    if (entry.driver === 'modemmanager') keys.push(entry.match ? ['match', `imei ${entry.match.imei}`] : ['modem', `mmcli modem ${entry.modem}`]);
    if (entry.driver === 'simulated') keys.push(['imei', `imei ${entry.imei}`]);
    for (const [field, key] of keys) {
      const first = seen.get(key);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['modems', i, field], message: `is the same as entry ${first}'s (${key}); each modem needs its own` });
      else seen.set(key, i);
    }
  });
});
export type ModemsFile = z.infer<typeof modemsFileSchema>;
export type ModemEntry = ModemsFile['modems'][number];
export type HilinkEntry = Extract<ModemEntry, { driver: 'hilink' }>;
export type ModemManagerEntry = Extract<ModemEntry, { driver: 'modemmanager' }>;
export type SimulatedEntry = Extract<ModemEntry, { driver: 'simulated' }>;

/** "modems[1] (hilink http://192.168.8.1)": how an error or a log line names an entry. */
export function describeEntry(entry: ModemEntry, index: number): string {
  const what = entry.driver === 'hilink' ? entry.management
    : entry.driver === 'modemmanager' ? (entry.match?.imei ? `imei ${entry.match.imei}` : entry.modem !== undefined ? `mmcli modem ${entry.modem}` : undefined)
      : entry.imei ? `imei ${entry.imei}` : undefined;
  return `modems[${index}] (${entry.name ? `${entry.name}, ` : ''}${entry.driver}${what ? ` ${what}` : ''})`;
}

/** Parses and validates a modems file's text; throws an AgentConfigError naming each wrong entry and field. */
export function parseModemsFile(text: string, path: string): ModemsFile {
  let raw: unknown;
  try {
    raw = extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text, { prettyErrors: true });
  } catch (err) {
    throw new AgentConfigError(`The agent cannot start: AGENT_MODEMS (${path}) is not valid ${extname(path) === '.json' ? 'JSON' : 'YAML'}: ${(err as Error).message}`);
  }
  const parsed = modemsFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const entries = (raw as { modems?: unknown })?.modems;
  const lines = parsed.error.issues.map((issue) => {
    const [top, index, ...field] = issue.path;
    if (top === 'modems' && typeof index === 'number' && Array.isArray(entries)) {
      const entry = entries[index] as Partial<ModemEntry> | undefined;
      const label = entry && typeof entry === 'object' && ['hilink', 'modemmanager', 'simulated'].includes(String(entry.driver))
        ? describeEntry(entry as ModemEntry, index) : `modems[${index}]`;
      return `  ${label}: ${field.length ? `${field.join('.')} ` : ''}${issue.message}`;
    }
    return `  ${issue.path.join('.') || '(file)'}: ${issue.message}`;
  });
  throw new AgentConfigError(`The agent cannot start; fix AGENT_MODEMS (${path}):\n${lines.join('\n')}`);
}

export async function loadModemsFile(path: string): Promise<ModemsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new AgentConfigError(`The agent cannot start: AGENT_MODEMS (${path}) cannot be read: ${(err as Error).message}`);
  }
  return parseModemsFile(text, path);
}

/**
 * The source address for an egress binding: an IP address as it is, an interface name as its IPv4 address now
 * (a ModemManager modem's wwan0 gets a new one on every reconnect). Throws when the interface is missing or has no
 * IPv4 address: the modem's traffic must never fall back to the host's default route.
 */
export function resolveEgress(binding: string, interfaces: typeof networkInterfaces = networkInterfaces): string {
  if (isIP(binding)) return binding;
  const addresses = interfaces()[binding];
  if (!addresses) throw new Error(`the egress interface ${binding} does not exist on this host (yet)`);
  const v4 = addresses.find((a) => a.family === 'IPv4');
  if (!v4) throw new Error(`the egress interface ${binding} has no IPv4 address (is the modem connected?)`);
  return v4.address;
}
