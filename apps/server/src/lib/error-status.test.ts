import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError, forbidden, notFound } from './app-error.js';
import { ERROR_STATUS } from './error-status.js';

const src = new URL('../', import.meta.url).pathname;
const sources = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
});

describe('an error code has one HTTP status (issue 29, item 4)', () => {
  it('every status still written at a throw is the table\'s', () => {
    const disagree: string[] = [];
    for (const file of sources(src)) {
      for (const [, code, status] of readFileSync(file, 'utf8').matchAll(/new AppError\('([A-Z0-9_]+)',\s*(\d{3})/g)) {
        if (ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== Number(status)) disagree.push(`${relative(src, file)}: ${code} ${status} (table: ${ERROR_STATUS[code as keyof typeof ERROR_STATUS]})`);
      }
    }
    expect(disagree).toEqual([]);
  });

  it('takes the status from the table when none is given', () => {
    expect(new AppError('PAYMENT_METHOD_DISABLED').status).toBe(409);
    expect(new AppError('ROTATION_FAILED').status).toBe(502);
    expect(notFound().status).toBe(404);
    expect(forbidden().status).toBe(403);
  });
});
