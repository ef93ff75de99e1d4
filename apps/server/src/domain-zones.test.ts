import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Decision 044's walls are lint rules generated from the module folders (eslint.config.js): this runs the repository's
// own ESLint configuration on small files linted in memory (nothing is written) as if they stood in the tree, so a
// change to the config that let a crossing through fails here, not in a reviewer's reading. support, audit and
// coupons are domains; the checks name the rule and the message a person would see.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// The cycle rules walk the whole import graph from each import and have their own runs in `npm run lint`; off here.
const eslint = new ESLint({ cwd: ROOT, overrideConfig: { rules: { 'import-x/no-cycle': 'off', 'cellport/import-cycle': 'off' } } });

/** What ESLint reports for `code` as the file `path` (relative to the repository). */
async function problems(path: string, code: string): Promise<{ rule: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return result!.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
}

const THROUGH_FACE = 'Import another domain through its index.ts (export what you need there).';
const OUTSIDE_THROUGH_FACE = 'The CLI, jobs, lib and the composition root import a domain through its index.ts.';
const NO_KYSELY = 'In a domain only <domain>.repository.ts uses Kysely: add a repository method.';
const ONLY_TX = 'Outside its repository a domain holds only a Tx its repository opened, to pass on: add a repository method.';
const zone = (message: string) => ({ rule: 'import-x/no-restricted-paths', message: expect.stringContaining(message) });
const restricted = (message: string) => ({ rule: 'no-restricted-imports', message: expect.stringContaining(message) });

describe('domain lint zones (decision 044)', () => {
  it('a domain importing another domain\'s internal file fails; the same import through its index.ts passes', async () => {
    const service = 'apps/server/src/modules/coupons/zone-probe.service.ts';
    expect(await problems(service, "import { SupportService } from '../support/support.service.js';\nexport const probe = SupportService;\n"))
      .toEqual([zone(THROUGH_FACE)]);
    expect(await problems(service, "import { redact } from '../audit/redact.js';\nexport const probe = redact;\n"))
      .toEqual([zone(THROUGH_FACE)]);
    expect(await problems(service, "import { SupportService } from '../support/index.js';\nexport const probe = SupportService;\n"))
      .toEqual([]);
    expect(await problems(service, "import { redact } from '../audit/index.js';\nexport const probe = redact;\n")).toEqual([]);
  });

  it('code outside modules (jobs, the CLI, lib) enters a domain only through its index.ts', async () => {
    expect(await problems('apps/server/src/jobs/zone-probe.ts', "import { SupportService } from '../modules/support/support.service.js';\nexport const probe = SupportService;\n"))
      .toEqual([zone(OUTSIDE_THROUGH_FACE)]);
    expect(await problems('apps/server/src/cli/zone-probe.ts', "import { AuditLog } from '../modules/audit/index.js';\nexport const probe = AuditLog;\n"))
      .toEqual([]);
  });

  it('a domain\'s service importing Kysely or the database handle fails; its repository may, and anyone may pass a Tx on', async () => {
    const service = 'apps/server/src/modules/audit/zone-probe.service.ts';
    expect(await problems(service, "import { sql } from 'kysely';\nexport const probe = sql;\n")).toEqual([restricted(NO_KYSELY)]);
    expect(await problems(service, "import type { Database } from '../../db/database.js';\nexport type Probe = Database;\n"))
      .toEqual([restricted(ONLY_TX)]);
    expect(await problems(service, "import type { Tx } from '../../db/database.js';\nexport type Probe = Tx;\n")).toEqual([]);
    // A route file is held to the same rule.
    expect(await problems('apps/server/src/modules/audit/zone-probe.routes.ts', "import { sql } from 'kysely';\nexport const probe = sql;\n"))
      .toEqual([restricted(NO_KYSELY)]);
    expect(await problems('apps/server/src/modules/audit/zone-probe.repository.ts',
      "import { sql } from 'kysely';\nimport type { Database } from '../../db/database.js';\nexport const probe = sql;\nexport type Probe = Database;\n"))
      .toEqual([]);
  });

  it('tests may reach inside a domain to test its parts', async () => {
    expect(await problems('apps/server/src/modules/coupons/zone-probe.test.ts', "import { redact } from '../audit/redact.js';\nexport const probe = redact;\n"))
      .toEqual([]);
  });
});
