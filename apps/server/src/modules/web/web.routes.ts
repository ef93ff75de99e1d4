import fastifyStatic from '@fastify/static';
import { isLanguage } from '@cellport/shared';
import { localeFileParamsSchema } from '@cellport/shared/schemas/locales';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';

const localesDir = join(dirname(createRequire(import.meta.url).resolve('@cellport/shared/package.json')), 'locales');

/** Reads every locale file once at start: namespaces are small and change only with a release. */
function loadLocales(): Map<string, string> {
  const out = new Map<string, string>();
  for (const lng of readdirSync(localesDir)) {
    for (const file of readdirSync(join(localesDir, lng)).filter((f) => f.endsWith('.json'))) {
      const json = JSON.parse(readFileSync(join(localesDir, lng, file), 'utf8')) as unknown;
      out.set(`${lng}/${file.replace(/\.json$/, '')}`, JSON.stringify(json));
    }
  }
  return out;
}

/** Serves the built web app, its translations, and the SPA entry for every client route. */
export async function registerWeb(app: App, { config }: AppContext): Promise<void> {
  const locales = loadLocales();
  app.get('/locales/:lng/:ns', {
    schema: { params: localeFileParamsSchema },
  }, async (request, reply) => {
    const { lng, ns } = request.params;
    const body = locales.get(`${isLanguage(lng) ? lng : 'en'}/${ns.replace(/\.js(on)?$/, '')}`);
    if (!body) throw new AppError('NOT_FOUND');
    return reply
      .type('application/json; charset=utf-8')
      .header('cache-control', config.isProduction ? 'public, max-age=300' : 'no-cache')
      .send(body);
  });

  const indexFile = join(config.webDist, 'index.html');
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, path) {
        res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const html = hasWeb ? readFileSync(indexFile, 'utf8') : '<!doctype html><title>Cellport</title><p>The web app is not built. Run <code>npm run build</code>.</p>';

  // Every other GET that is not an API call belongs to the client router (which also sends unknown paths to
  // /en/dashboard). API paths answer JSON 404.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (request.method !== 'GET' && request.method !== 'HEAD' || path.startsWith('/api/') || path.startsWith('/assets/')) {
      return reply.status(404).send({ error: 'Not found', code: 'NOT_FOUND' });
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  });
}
