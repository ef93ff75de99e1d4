// `npm run bench`: runs every benchmark in bench/ one after another, against the built app (`npm run build`).
import { spawnSync } from 'node:child_process';

// buying, purchase-ceiling and polling need PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local
// server); purchase-ceiling also needs pgbench.
// proxy.mjs installs tinyproxy, squid, dante and microsocks from Debian when they are missing.
// scale.mjs is not in this list: it seeds millions of rows for minutes; run it by itself (`node bench/scale.mjs`).
const benches = ['sign-in-bundle.mjs', 'buying.mjs', 'purchase-ceiling.mjs', 'polling.mjs', 'proxy.mjs', 'gateway.mjs'];
let failed = 0;
for (const bench of benches) {
  console.log(`\n▶ bench/${bench}`);
  const result = spawnSync(process.execPath, [new URL(bench, import.meta.url).pathname], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
