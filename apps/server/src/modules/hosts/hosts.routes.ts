import type { Services } from '../../composition.js';
import type { App, AppContext } from '../../context.js';
import { startHostProtocol, type HostProtocolServer } from './hosts.server.js';

/** The host protocol's socket.io server (HOST_PROTOCOL.path) on the app's own HTTP server. */
export async function registerHosts(app: App, ctx: AppContext, services: Services): Promise<void> {
  const hosts = await startHostProtocol(app.server, ctx, services);
  app.decorate('hostProtocol', hosts);
  app.addHook('preClose', async () => { await hosts.close(); });
}

declare module 'fastify' {
  interface FastifyInstance { hostProtocol: HostProtocolServer }
}
