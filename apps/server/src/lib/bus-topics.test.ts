import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, describeOnPostgres, type TestApp } from '../../test/helpers.js';
import { announced } from '../../test/announcements.js';
import { encodeBusMessage } from './bus.js';
import { TOPICS, type TopicInput } from './bus-topics.js';

const root = new URL('../../', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mjs)$/.test(name) ? [path] : [];
  });
}

describe('bus topics (issue 29, item 2)', () => {
  it('are named by TOPICS only: no topic string outside bus-topics.ts in the server\'s code', () => {
    const declared = new Set(['bus-topics.ts', 'bus-topics.test.ts']);
    const offenders: string[] = [];
    for (const file of sources(join(root, 'src'))) {
      if (declared.has(file.split('/').pop()!) || file.endsWith('.test.ts')) continue;
      const text = readFileSync(file, 'utf8');
      for (const topic of Object.values(TOPICS)) {
        // 'tariff' is also the realtime event's name (io.emit('tariff')): as a topic it is a bus call's argument.
        const pattern = topic.name.includes(':')
          ? new RegExp(`['"\`]${topic.name}['"\`]`)
          : new RegExp(`\\.(publish|on)\\(\\s*['"\`]${topic.name}['"\`]`);
        if (pattern.test(text)) offenders.push(`${relative(root, file)}: '${topic.name}'`);
      }
    }
    expect(offenders).toEqual([]);
  });

  describe('on one instance', () => {
    let t: TestApp;
    beforeAll(async () => { t = await buildTestApp(); });
    afterAll(async () => { await t.close(); });

    it('refuses to publish a payload its schema does not accept, and hands handlers the parsed payload', async () => {
      const seen: unknown[] = [];
      const off = t.ctx.bus.on(TOPICS.apiKeyRevoked, (e) => { seen.push(e.hash); });
      await expect(t.ctx.bus.publish(TOPICS.apiKeyRevoked, { hash: 42 } as unknown as TopicInput<typeof TOPICS.apiKeyRevoked>)).rejects.toThrow();
      await t.ctx.bus.publish(TOPICS.apiKeyRevoked, { hash: 'abc', extra: 'dropped' } as TopicInput<typeof TOPICS.apiKeyRevoked>);
      off();
      expect(seen).toEqual(['abc']);
    });
  });
});

describeOnPostgres('bus topics across instances', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  it('hands a handler only a declared topic with a payload its schema accepts, whoever sent it', async () => {
    const heard: unknown[] = [];
    const resyncs: unknown[] = [];
    const off = [t.ctx.bus.on(TOPICS.apiKeyRevoked, (e) => { heard.push(e); }), t.ctx.bus.on(TOPICS.busResync, (e) => { resyncs.push(e); })];
    // As another instance (or a process running other code) would send them, through NOTIFY.
    const notify = (message: object) => sql`select pg_notify('cellport_bus', ${JSON.stringify(message)})`.execute(t.ctx.db);
    await notify({ origin: 'elsewhere', topic: TOPICS.apiKeyRevoked.name, data: { hash: 7 } });
    await notify({ origin: 'elsewhere', topic: 'never:declared', data: { hash: 'x' } });
    await notify({ origin: 'elsewhere', topic: TOPICS.busResync.name, data: {} });
    await notify(JSON.parse(encodeBusMessage({ origin: 'elsewhere', topic: TOPICS.apiKeyRevoked.name, data: { hash: 'good' } })));
    // The positive marker: every NOTIFY committed before this one has been handled.
    await announced(t);
    for (const f of off) f();
    expect(heard).toEqual([{ hash: 'good' }]);
    expect(resyncs).toEqual([]);
  });
});
