// The BUILT server for the page benches (sign-in-bundle.mjs, page-bundles.mjs): started on a free port with its own
// data directory and no embedded agent (nothing listens on the demo modems' ports, which a running `npm start`
// holds), and Chromium with the flags this machine needs. Builds nothing: run `npm run build` first.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { freePort } from './proxy-procs.mjs';

const root = new URL('../..', import.meta.url).pathname;
export const webDist = process.env.WEB_DIST ?? join(root, 'apps/web/dist');

export function requireBuild() {
  for (const file of [join(root, 'apps/server/dist/main.js'), join(webDist, 'index.html')]) {
    if (!existsSync(file)) {
      console.error(`Missing ${file}: run \`npm run build\` first (the bench measures the built app).`);
      process.exit(1);
    }
  }
}

/** Starts the built server; `seedDemo` seeds the demo catalog and account (demo@cellport.local). */
export async function startBuiltServer({ seedDemo = false } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'cellport-bench-'));
  const server = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1',
      PUBLIC_URL: url, DATA_DIR: dataDir, SEED_DEMO: String(seedDemo), EMBEDDED_AGENT: 'false', LOG_LEVEL: 'warn',
      WEB_DIST: webDist, SEED_MODEM_PORT_BASE: String(await freePort()) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => server.once('exit', r));
  try {
    await waitReady(url);
  } catch (error) {
    // A server that never became ready must not outlive the bench (it would hold its port and data directory).
    server.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    async stop() {
      server.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/**
 * One response's sizes when it is JavaScript ('script') or a translation file ('locale', /locales/{lng}/{ns}.js,
 * JSON data, not counted as JavaScript); null otherwise. gzip level 9 of the body is the figure of record.
 */
export async function scriptSizes(response) {
  const path = new URL(response.url()).pathname;
  const type = response.headers()['content-type'] ?? '';
  const kind = path.startsWith('/locales/') ? 'locale'
    : response.request().resourceType() === 'script' || /javascript/.test(type) ? 'script' : null;
  if (!kind) return null;
  const body = await response.body().catch(() => null);
  if (!body) return null;
  const sizes = await response.request().sizes();
  return {
    kind, path,
    raw: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
    served: sizes.responseBodySize,
    encoding: response.headers()['content-encoding'] ?? 'none',
  };
}

export const kb = (n) => (n / 1024).toFixed(1);
export const sum = (list, key) => list.reduce((n, s) => n + s[key], 0);

// Waiting for an outside process to start is the one poll the benches allow (as e2e/support/server.ts does).
async function waitReady(base) {
  for (let i = 0; i < 400; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error('the server did not become ready within 60 s');
}
