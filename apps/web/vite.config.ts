import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = process.env.CELLPORT_API ?? 'http://localhost:3000';
const proxied = ['/api', '/locales', '/signin', '/signup', '/signout', '/socket.io', '/email-confirm', '/healthz'];

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022', reportCompressedSize: false },
  server: { port: 5173, proxy: Object.fromEntries(proxied.map((p) => [p, { target: server, ws: p === '/socket.io' }])) },
});
