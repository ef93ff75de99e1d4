import { Readable } from 'node:stream';
import { SPEED_TEST } from '@cellport/shared/schemas/host-protocol';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { hostForKey } from './host-keys.repository.js';

// The agents' default speed-test target (issue 27, item 8; apps/agent README, "Speed tests"): GET sends the bytes
// asked for (at most SPEED_TEST.maxBytes), POST reads and counts the body. Only a host key gets an answer, so
// nobody else can spend the server's bandwidth; each agent tests each modem a few times a day. Not in the API
// reference: agents' routes are not the customers' API.

const CHUNK = Buffer.alloc(64 * 1024, 0x5a);

const hostKeyOnly = (db: AppContext['db']) => async (request: FastifyRequest): Promise<void> => {
  const header = request.headers.authorization ?? '';
  const key = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (!key || !(await hostForKey(db, key))) throw new AppError('UNAUTHORIZED');
};

function zeros(bytes: number): Readable {
  let left = bytes;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, CHUNK.length);
      left -= n;
      this.push(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n));
    },
  });
}

export async function registerSpeedTest(app: App, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // The body is counted as it arrives and never kept.
    scope.addContentTypeParser('*', { bodyLimit: SPEED_TEST.maxBytes }, (_request, payload, done) => {
      let bytes = 0;
      payload.on('data', (chunk: Buffer) => { bytes += chunk.length; });
      payload.on('end', () => done(null, bytes));
      payload.on('error', (err) => done(err, undefined));
    });
    const config = { crossSite: true, rateLimit: { max: 120, timeWindow: '1 minute' } };
    const onRequest = hostKeyOnly(ctx.db);

    scope.get(SPEED_TEST.path, { config, schema: { hide: true }, onRequest }, (request, reply) => {
      const asked = Number((request.query as { bytes?: string }).bytes ?? 0);
      const bytes = Number.isInteger(asked) && asked >= 0 ? Math.min(asked, SPEED_TEST.maxBytes) : 0;
      return reply.header('cache-control', 'no-store').header('content-type', 'application/octet-stream')
        .header('content-length', String(bytes)).send(zeros(bytes));
    });

    scope.post(SPEED_TEST.path, { config, schema: { hide: true }, onRequest }, (request, reply) => {
      const bytes = typeof request.body === 'number' ? request.body : 0;
      return reply.header('cache-control', 'no-store').send({ bytes });
    });
  });
}
