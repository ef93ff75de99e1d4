import { realtimeTokenResponseSchema } from '@cellport/shared/schemas/realtime';
import type { Services } from '../../composition.js';
import type { App, AppContext } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { issueRealtimeToken } from './realtime-token.js';
import { startRealtime } from './realtime.server.js';

/** GET /api/v1/token and the socket.io server on the same HTTP server. */
export function registerRealtime(app: App, ctx: AppContext, { ledger }: Services): void {
  app.get('/api/v1/token', {
    onRequest: requireUser, schema: { tags: ['realtime'], response: { 200: realtimeTokenResponseSchema } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { userId, sessionId } = currentUser(request);
    return { token: issueRealtimeToken({ userId, sessionId }, ctx.config.secret) };
  });

  const realtime = startRealtime(app.server, ctx, ledger);
  app.decorate('io', realtime.io);
  app.addHook('preClose', async () => { await realtime.close(); });
}

declare module 'fastify' {
  interface FastifyInstance { io: import('socket.io').Server }
}
