import type { TestProject } from 'vitest/node';
import { requirePostgresWhenAsked } from './require-postgres.js';
import { prepareTemplate } from './template-db.js';

// Migrate once per test run; every test file then starts from a copy (see template-db.ts).
export default async function setup(project: TestProject) {
  requirePostgresWhenAsked();
  const template = await prepareTemplate();
  const { cleanup, ...serializable } = template;
  project.provide('dbTemplate', serializable);
  return async () => { await cleanup?.(); };
}

declare module 'vitest' {
  interface ProvidedContext { dbTemplate: { kind: 'pglite'; dumpFile: string } | { kind: 'postgres'; url: string; template: string } }
}
