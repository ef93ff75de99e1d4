// The package mirror this project installs from lacks some platform-only optional packages (rollup's android and
// freebsd builds, for example). `npm install` skips them but leaves them named in package-lock.json, and then
// `npm ci` refuses the lock. This drops optional dependencies that have no entry of their own in the lock.
// Run it after `npm install` changes the lock: `node scripts/prune-lock.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const present = new Set(Object.keys(lock.packages).map((p) => p.replace(/^.*node_modules\//, '')));
let dropped = 0;
for (const entry of Object.values(lock.packages)) {
  if (!entry.optionalDependencies) continue;
  for (const name of Object.keys(entry.optionalDependencies)) {
    if (!present.has(name)) {
      delete entry.optionalDependencies[name];
      dropped++;
    }
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`prune-lock: dropped ${dropped} optional dependencies the registry does not serve`);
