import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { runSeed } from './db/seed/index.js';
import { startEmbeddedAgent, type EmbeddedAgent } from './embedded-agent.js';
import { startUdpEcho, type UdpEcho } from './udp-echo.js';
import { dumpEmbedded } from './cli/backup.js';
import { claimDataDir, DataDirInUseError } from './cli/control-socket.js';
import { servesRoutes } from './background.js';

/** Past SHUTDOWN_TIMEOUT_MS, the connections are cut; this much later the process exits whatever is still closing. */
const BACKSTOP_MARGIN_MS = 5_000;
/** A second stop signal this soon after the first is the same request delivered twice (see shutdown). */
const SAME_REQUEST_MS = 1_000;

async function main(): Promise<void> {
  // A reader of stderr that went away must not stop the server (stdout: lib/log-stream.ts).
  process.stderr.on('error', () => {});
  const config = loadConfig();
  // The embedded database belongs to one process: claim DATA_DIR first (another server there is refused), and
  // answer the operator CLI's backups through the claim's socket (cli/control-socket.ts, decision 032).
  const control = config.DATABASE_URL ? null : await claimDataDir(config.DATA_DIR);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  await migrateToLatest(database.db);
  // This process runs the timers of its role (background.ts): the job runner and the sweeps.
  const { app, ctx } = await buildApp({ config, database, timers: true });
  control?.serve({ backup: () => dumpEmbedded(database) });
  // A worker (CELLPORT_ROLE=worker, decision 044) serves only /healthz, /readyz and /metrics: the demo's data, the
  // UDP check and the demo's agent (which speaks the host protocol) belong to the processes that serve the product.
  const serving = servesRoutes(config.CELLPORT_ROLE);
  if (config.seedDemo && serving) await runSeed(ctx);

  let embeddedAgent: EmbeddedAgent | null = null;
  let udpEcho: UdpEcho | null = null;
  let closingSince = 0;
  // Graceful stop (issue 17, item 5). One log line per phase. A load balancer sees new requests answered 503 with
  // `Connection: close` (Fastify's return503OnClosing) and new connections refused, and sends them elsewhere.
  const shutdown = async (signal: string) => {
    if (closingSince) {
      // One stop request often arrives twice at once: a supervisor's or a terminal's signal reaches the whole process
      // group, and `npm start`'s script forwards it too. Only a request made again later (a second Ctrl-C) forces.
      if (Date.now() - closingSince < SAME_REQUEST_MS) return void app.log.info({ signal }, 'shutdown: the same stop request again; still stopping gracefully');
      app.log.warn({ signal }, 'shutdown: asked again, exiting now');
      process.exit(1);
    }
    closingSince = Date.now();
    const limit = config.SHUTDOWN_TIMEOUT_MS;
    const inFlight = await new Promise<number>((r) => app.server.getConnections((err, n) => r(err ? 0 : n)));
    app.log.info({ signal, connections: inFlight, limitMs: limit }, 'shutdown 1/4: no new requests or jobs; finishing those in flight');
    // The last resort, if closing itself hangs (a database that never answers).
    const backstop = setTimeout(() => {
      app.log.error('shutdown: still not done well past the time limit: exiting');
      process.exit(1);
    }, limit + BACKSTOP_MARGIN_MS).unref();
    let cut = false;
    const deadline = setTimeout(() => {
      cut = true;
      app.log.warn({ limitMs: limit }, 'shutdown: the time limit passed: cutting the connections still open');
      app.server.closeAllConnections();
    }, limit).unref();
    app.server.once('close', () => app.log.info('shutdown 2/4: every request answered; the listener is closed'));
    // server.close() ends the keep-alive connections idle at that moment only; one whose request finishes later would
    // stay open until its keep-alive timeout (72 s) and hold the stop up, so idle ones are ended as they come.
    const reaper = setInterval(() => app.server.closeIdleConnections(), 100).unref();
    let code = 0;
    try {
      // Jobs first: the runner stops claiming at once, while a job already running finishes and commits.
      app.jobs.stopClaiming();
      // Then the app: realtime and agents' sockets close (their clients reconnect to another instance), the listener
      // stops, requests in flight finish, the job runner and the bus stop. A host whose agent leaves while the server
      // is closing is not marked offline. Stopping the demo's agent first told every customer their proxy was
      // offline, and back, on each restart.
      await app.close();
      clearTimeout(deadline);
      clearInterval(reaper);
      app.log.info('shutdown 3/4: jobs stopped; realtime and agent connections closed');
      await embeddedAgent?.stop();
      await udpEcho?.close();
      await control?.close();
      await database.close();
      app.log.info({ cut }, `shutdown 4/4: database closed; exiting ${cut ? 1 : 0}`);
      code = cut ? 1 : 0;
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      code = 1;
    } finally {
      clearTimeout(backstop);
      process.exit(code);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const listening = typeof address === 'object' && address ? address.port : config.PORT;
  // The agents' UDP check (udp-echo.ts): a port taken by something else is a warning, not a reason not to serve.
  if (config.UDP_ECHO && serving) {
    udpEcho = await startUdpEcho(config.HOST, listening).catch((err: unknown) => {
      app.log.warn({ err }, `UDP_ECHO: UDP port ${listening} could not be bound; agents' UDP checks against this server will fail`);
      return null;
    });
  }
  if (config.embeddedAgent && serving) {
    embeddedAgent = await startEmbeddedAgent(ctx, listening);
  }
  const databaseKind = database.kind === 'pglite' ? `embedded in ${config.DATA_DIR}` : 'PostgreSQL';
  if (serving) app.log.info(`Cellport is ready at ${config.publicUrl} (role: ${config.CELLPORT_ROLE}; database: ${databaseKind})`);
  else app.log.info(`Cellport worker is running jobs (health and metrics on port ${listening}; database: ${databaseKind})`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirInUseError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
