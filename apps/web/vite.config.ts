import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = process.env.CELLPORT_API ?? 'http://localhost:3000';
const proxied = ['/api', '/locales', '/signin', '/signup', '/signout', '/socket.io', '/email-confirm', '/healthz'];

export default defineConfig({
  plugins: [react()],
  // wouter imports useSyncExternalStore through the shim for React 17; on React 18 and later the shim only hands back
  // React's own, so it is pointed there and no page downloads the shim's fallback (issue 31, item 4).
  resolve: {
    alias: [{ find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: fileURLToPath(new URL('./src/lib/react-sync-external-store.ts', import.meta.url)) }],
  },
  // No modulepreload polyfill (0.5 KB of gzip on every page): a browser without modulepreload (Firefox before 115,
  // Safari before 17) still runs every page, it fetches a lazy page's modules one after another instead of at once.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022', reportCompressedSize: false, modulePreload: { polyfill: false } },
  server: { port: 5173, proxy: Object.fromEntries(proxied.map((p) => [p, { target: server, ws: p === '/socket.io' }])) },
});
