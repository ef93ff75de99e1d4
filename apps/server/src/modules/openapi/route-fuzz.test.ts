import { hash } from '@node-rs/argon2';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

/**
 * Route fuzz (issue 13): walks the full OpenAPI document (operator, development and page routes included) and
 * throws generated requests at every operation as a visitor, a customer and an operator: wrong types, empty and
 * huge strings, NUL, lone surrogates, deep nesting, __proto__, huge numbers, wrong content types, invalid JSON; and
 * (issue 26) pattern-hostile e-mails, whole-internet and loopback addresses, spoofed X-Forwarded-For, bogus bearer keys.
 * No answer may be a 5xx, the server must keep answering, and the log must show no error.
 *
 * The seed is fixed (CI); FUZZ_SEED=<n> replays one, FUZZ_SEED=random draws one and prints it. FUZZ_CASES sets the
 * requests per operation and role.
 */
const SEED = process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 13);
const CASES = Number(process.env.FUZZ_CASES ?? 30);

/** mulberry32: a small seeded generator, so a seed replays the same requests. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)]!, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof generator>;

interface JsonSchema {
  type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema; enum?: unknown[]; format?: string;
  anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; allOf?: JsonSchema[]; $ref?: string; minimum?: number; maximum?: number;
  required?: string[]; additionalProperties?: boolean | JsonSchema; const?: unknown; nullable?: boolean; pattern?: string;
}
interface Operation {
  method: string; path: string; tags?: string[];
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema; required?: boolean }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

const UUID = '00000000-0000-4000-8000-000000000000';
const NASTY_STRINGS = [
  '', ' ', 'x\u0000y', '\u0000', '\ud800', 'a\udc00b', 'x'.repeat(70_000), '😀'.repeat(3000), '%00', '../../../etc/passwd',
  '<script>alert(1)</script>', "' OR 1=1 --", '${7*7}', '__proto__', 'constructor', 'NaN', '-1', '1e999', 'null', 'true', '[]', '{}',
  '\\', '//evil.example', 'https://evil.example', UUID, 'not-a-uuid', '2026-13-45T99:99:99Z', '-9223372036854775809', '9'.repeat(400),
  // Issue 26: the input that made the e-mail pattern quadratic, whole-internet whitelists, loopback and service targets.
  `a@${'.'.repeat(60_000)}@`, `${'a.'.repeat(20_000)}@x`, '0.0.0.0/0', '::/0', '127.0.0.1', '127.0.0.1:5432', 'http://127.0.0.1:3000/api/v1/dev/outbox',
  'cpk_not-a-key', 'p:ss@word',
];
const NASTY_VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, -0, 2 ** 53 + 1, Number.MAX_VALUE, -Number.MAX_VALUE, 1e21, [], {}, [[[]]], { __proto__: { admin: true } },
  { constructor: { prototype: { polluted: true } } }, ['x\u0000'], { a: 'x\u0000' },
];

function resolve(doc: { components?: { schemas?: Record<string, JsonSchema> } }, s: JsonSchema | undefined): JsonSchema | undefined {
  let cur = s;
  for (let i = 0; cur?.$ref && i < 10; i++) cur = doc.components?.schemas?.[cur.$ref.split('/').pop()!];
  return cur;
}

/** A value that fits the schema more or less (so a request gets past the first check), or a nasty one. */
function valueFor(doc: Parameters<typeof resolve>[0], schema: JsonSchema | undefined, rng: Rng, depth = 0): unknown {
  const s = resolve(doc, schema);
  if (!s || rng.chance(0.15)) return rng.chance(0.5) ? rng.pick(NASTY_STRINGS) : rng.pick(NASTY_VALUES);
  const branches = s.anyOf ?? s.oneOf ?? s.allOf;
  if (branches?.length) return valueFor(doc, rng.pick(branches), rng, depth);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return rng.pick(s.enum);
  const type = Array.isArray(s.type) ? rng.pick(s.type) : s.type;
  switch (type) {
    case 'string':
      if (s.format === 'uuid') return UUID;
      if (s.format === 'date-time') return new Date(Date.UTC(2026, 0, 1 + rng.int(60))).toISOString();
      if (s.format === 'date') return '2026-01-15';
      if (s.format === 'email') return rng.chance(0.2) ? rng.pick(NASTY_STRINGS) : `fuzz${rng.int(1000)}@example.com`;
      return rng.chance(0.5) ? rng.pick(NASTY_STRINGS) : `fuzz ${rng.int(1000)}`;
    case 'integer': case 'number':
      return rng.chance(0.7) ? (s.minimum ?? 0) + rng.int(5) : rng.pick([-1, 0, 1e21, 2 ** 53 + 1, 1.5, -1e308]);
    case 'boolean': return rng.chance(0.5);
    case 'null': return null;
    case 'array': return depth > 4 ? [] : Array.from({ length: rng.int(3) }, () => valueFor(doc, s.items, rng, depth + 1));
    case 'object': {
      if (depth > 4) return {};
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(s.properties ?? {})) {
        if (s.required?.includes(key) || rng.chance(0.6)) out[key] = valueFor(doc, prop, rng, depth + 1);
      }
      if (rng.chance(0.1)) out[rng.pick(['__proto__', 'constructor', 'extra', ''])] = rng.pick(NASTY_VALUES);
      return out;
    }
    default: return rng.pick(NASTY_VALUES);
  }
}

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
/** Raw bodies no schema would produce. */
const RAW_BODIES: Array<{ contentType: string; payload: string }> = [
  { contentType: 'application/json', payload: '' },
  { contentType: 'application/json', payload: '{"a":' },
  { contentType: 'application/json', payload: '{"a": NaN, "b": Infinity}' },
  { contentType: 'application/json', payload: '{"n": 1e999, "m": -1e999}' },
  { contentType: 'application/json', payload: deep(5000) },
  { contentType: 'application/json', payload: `{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}` },
  { contentType: 'application/json', payload: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' },
  { contentType: 'application/json', payload: '"x\\u0000y"' },
  { contentType: 'application/json', payload: '{"a":"\\ud800"}' },
  { contentType: 'application/json; charset=latin1', payload: '{}' },
  { contentType: 'application/x-www-form-urlencoded', payload: 'a=%00&b[]=1&__proto__[x]=1&=&&' },
  { contentType: 'text/plain', payload: 'hello' },
  { contentType: 'text/csv', payload: 'IMEI,host\n\u0000,x' },
  { contentType: 'application/xml', payload: '<a/>' },
  { contentType: 'multipart/form-data; boundary=x', payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--' },
];

function fillPath(path: string, op: Operation, rng: Rng): string {
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const param = op.parameters?.find((p) => p.in === 'path' && p.name === name);
    const value = rng.chance(0.6) ? valueFor({}, param?.schema, rng) : rng.pick(NASTY_STRINGS);
    return encodePart(typeof value === 'string' ? value.slice(0, 300) : String(value));
  });
}

/** Percent-encodes a path segment; a lone surrogate goes out as the invalid UTF-8 bytes a hostile client would send. */
function encodePart(value: string): string {
  try { return encodeURIComponent(value); } catch { return `${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`; }
}

function queryFor(op: Operation, doc: Parameters<typeof resolve>[0], rng: Rng): string {
  const params = new URLSearchParams();
  for (const p of op.parameters?.filter((x) => x.in === 'query') ?? []) {
    if (!p.required && rng.chance(0.4)) continue;
    const v = valueFor(doc, p.schema, rng);
    params.append(p.name, typeof v === 'string' ? v.slice(0, 5000) : JSON.stringify(v) ?? '');
  }
  if (rng.chance(0.15)) params.append(rng.pick(['page', 'x', '__proto__', 'q[]']), rng.pick(NASTY_STRINGS).slice(0, 200));
  const s = params.toString();
  return s ? `?${s}` : '';
}

describe(`route fuzz (seed ${SEED}, ${CASES} requests per operation and role)`, () => {
  let t: TestApp;
  const logErrors: string[] = [];
  const processErrors: unknown[] = [];
  const onProcessError = (err: unknown) => { processErrors.push(err); };
  const roles: Record<'visitor' | 'customer' | 'operator', string | null> = { visitor: null, customer: null, operator: null };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    console.log(`route fuzz seed: ${SEED} (replay with FUZZ_SEED=${SEED})`);
    process.on('unhandledRejection', onProcessError);
    process.on('uncaughtException', onProcessError);
    t = await buildTestApp({ LOG_LEVEL: 'error', RATE_LIMIT_AUTH_PER_MINUTE: '100000' }, {
      logStream: { write: (line: string) => { logErrors.push(line); } },
    });
    const passwordHash = await hash('Passw0rd!');
    for (const role of ['customer', 'admin'] as const) {
      const row = await t.ctx.db.insertInto('users').values({
        email: `fuzz-${role}@example.com`, name: `Fuzz ${role}`, password_hash: passwordHash, is_verified: true, role,
      }).returning('id').executeTakeFirstOrThrow();
      ids[role] = row.id;
    }
  });
  afterAll(async () => {
    process.off('unhandledRejection', onProcessError);
    process.off('uncaughtException', onProcessError);
    await t?.close();
  });

  /** A fresh session per operation: the fuzz may sign itself out or revoke its other sessions. */
  async function signIn(role: 'customer' | 'admin'): Promise<string> {
    const token = await t.ctx.sessions.create(ids[role]!, { ip: '127.0.0.1', headers: {} } as FastifyRequest);
    return `cp_session=${token}`;
  }

  it('no 5xx, no crash, no error in the log, for every operation and role', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>; components?: { schemas?: Record<string, JsonSchema> } };
    const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map(([m, op]) => ({ ...op, method: m.toUpperCase(), path })));
    expect(operations.length).toBeGreaterThan(100);
    expect(operations.some((o) => o.path.startsWith('/api/v1/admin/'))).toBe(true);

    const rng = generator(SEED);
    const failures: string[] = [];
    let sent = 0;
    const statuses = new Map<number, number>();
    for (const op of operations) {
      roles.customer = await signIn('customer');
      roles.operator = await signIn('admin');
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      for (const [role, cookie] of Object.entries(roles)) {
        for (let i = 0; i < CASES; i++) {
          const url = fillPath(op.path.replace(/\{\*\}|\*/g, () => rng.pick(['', 'x', '..%2F..%2Fetc%2Fpasswd', '%00', 'a/b/c'])), op, rng) + queryFor(op, doc, rng);
          const headers: Record<string, string> = {};
          if (cookie) headers.cookie = cookie;
          if (rng.chance(0.9)) headers.origin = t.config.publicUrl;
          // Spoofed client addresses and bogus bearer keys: neither may be trusted, neither may break a route (issue 26).
          if (rng.chance(0.1)) headers['x-forwarded-for'] = rng.pick(['127.0.0.1', '10.0.0.1, 127.0.0.1', 'x'.repeat(5000), '::1', '']);
          if (rng.chance(0.1)) headers.authorization = rng.pick(['Bearer cpk_not-a-key', 'Bearer ', `Bearer cpk_${'x'.repeat(5000)}`, 'Basic Zm9vOmJhcg==']);
          let payload: string | undefined;
          if (op.method !== 'GET' && op.method !== 'DELETE' || rng.chance(0.1)) {
            if (rng.chance(0.3)) {
              const raw = rng.pick(RAW_BODIES);
              headers['content-type'] = raw.contentType;
              payload = raw.payload;
            } else {
              headers['content-type'] = 'application/json';
              payload = JSON.stringify(valueFor(doc, bodySchema ?? { type: 'object' }, rng));
            }
          }
          const res = await t.app.inject({ method: op.method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
          sent++;
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode >= 500) {
            failures.push(`${role} ${op.method} ${url.slice(0, 200)} ${payload?.slice(0, 200) ?? ''} → ${res.statusCode} ${res.body.slice(0, 200)}`);
          }
        }
      }
    }
    console.log(`route fuzz: ${sent} requests to ${operations.length} operations; answers ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
    expect(failures).toEqual([]);
    expect(processErrors).toEqual([]);
    expect(logErrors.filter((line) => (JSON.parse(line) as { level: number }).level >= 50)).toEqual([]);
    // Still serving.
    expect((await t.app.inject('/healthz')).statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie: await signIn('customer') } });
    expect(me.statusCode).toBe(200);
  }, 180_000);

  it('a rate-limited route whose own 429 carries retryAfter answers the limiter\'s 429 in that shape (found by the fuzz: a 500)', async () => {
    const cookie = await signIn('customer');
    let last = await t.app.inject({ method: 'GET', url: '/api/v1/rotate/no-such-token', headers: { cookie }, remoteAddress: '198.51.100.7' });
    for (let i = 0; i < 40 && last.statusCode !== 429; i++) {
      last = await t.app.inject({ method: 'GET', url: '/api/v1/rotate/no-such-token', headers: { cookie }, remoteAddress: '198.51.100.7' });
    }
    expect(last.statusCode, last.body).toBe(429);
    expect(last.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
  });
});
