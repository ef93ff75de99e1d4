// Bundles the agent and the gateway (and the shared contract they import from source) into dist/main.js and
// dist/gateway.js. Dependencies stay external.
import { build } from 'esbuild';
import { copyFileSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).flatMap((name) => [name, `${name}/*`]);

await build({
  entryPoints: {
    main: new URL('./src/main.ts', import.meta.url).pathname,
    gateway: new URL('./src/gateway-main.ts', import.meta.url).pathname,
    'fingerprint-echo': new URL('./src/fingerprint-echo-main.ts', import.meta.url).pathname,
  },
  outdir: new URL('./dist', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
});

// The C sources (the fingerprint presets' egress program and preset socket addon, the gateway's kernel relay) go
// with the bundle: the agent and the gateway build them on the host on first use (issue 30, decision 050;
// host-build.ts finds them beside dist/main.js).
for (const source of ['fingerprint/preset-syn-rewrite.bpf.c', 'fingerprint/preset-socket.c', 'relay/kernel-relay.c']) {
  copyFileSync(new URL(`./src/${source}`, import.meta.url), new URL(`./dist/${source.split('/').pop()}`, import.meta.url));
}
