import type { App } from '../src/context.js';

export interface RouteEntry { method: string; url: string }

/**
 * Every route the app has registered under `prefix`, read from Fastify's own route tree (printRoutes), so a route
 * added anywhere — in the admin module or not — is found. HEAD routes (added for each GET) are left out.
 */
export function registeredRoutes(app: App, prefix: string): RouteEntry[] {
  const lines = app.printRoutes({ commonPrefix: false }).split('\n');
  const stack: string[] = [];
  const out: RouteEntry[] = [];
  for (const line of lines) {
    const m = line.match(/^([│ ]*)(?:├── |└── )(\S+)(?: \(([^)]*)\))?/);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
      if (method !== 'HEAD' && path.startsWith(prefix)) out.push({ method, url: path });
    }
  }
  return out;
}

/** The route with its :params filled with a syntactically valid value. */
export function concrete(url: string): string {
  return url.replace(/:minutes/g, '5').replace(/:[A-Za-z_]+/g, '00000000-0000-4000-8000-000000000000');
}
