import { realtimeTokenResponseSchema } from '@cellport/shared/schemas/realtime';
import type { App, AppContext } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { issueRealtimeToken } from './realtime-token.js';

/** GET /api/v1/token: the token the realtime socket (started by the root, app.ts) is opened with. */
export function registerRealtime(app: App, ctx: AppContext): void {
  app.get('/api/v1/token', {
    onRequest: requireUser, schema: { tags: ['realtime'], response: { 200: realtimeTokenResponseSchema } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { userId, sessionId } = currentUser(request);
    return { token: issueRealtimeToken({ userId, sessionId }, ctx.config.secret) };
  });
}
