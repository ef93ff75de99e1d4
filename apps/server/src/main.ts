import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { runSeed } from './db/seed/index.js';
import { startEmbeddedAgent, type EmbeddedAgent } from './embedded-agent.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  await migrateToLatest(database.db);
  const { app, ctx } = await buildApp({ config, database });
  if (config.seedDemo) await runSeed(ctx);

  let embeddedAgent: EmbeddedAgent | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    try {
      // The app first: a host whose agent leaves while the server is closing is not marked offline. Stopping the
      // demo's agent first told every customer their proxy was offline, and back, on each restart.
      await app.close();
      await embeddedAgent?.stop();
      await database.close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  if (config.embeddedAgent) {
    const address = app.server.address();
    embeddedAgent = await startEmbeddedAgent(ctx, typeof address === 'object' && address ? address.port : config.PORT);
  }
  app.log.info(`Cellport is ready at ${config.publicUrl} (database: ${database.kind === 'pglite' ? `embedded in ${config.DATA_DIR}` : 'PostgreSQL'})`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
