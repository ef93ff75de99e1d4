// Entry point of `npm run admin` (scripts/admin.mjs runs this file): see admin-cli.ts for the commands.
import { ConfigError } from '../config.js';
import { runAdminCli } from './admin-cli.js';

runAdminCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
