// gateway.test.ts again, with the gateway relaying pooled connections in JavaScript (proxy/splice.ts): the relay of a
// gateway that cannot build the kernel relay (decision 050), and of TLS links. The variable is read when each suite's
// gateway starts, after this file's imports.
import { afterAll, vi } from 'vitest';

process.env.CELLPORT_TEST_GATEWAY_RELAY = 'js';
// The next test file in this fork shares its module cache (vitest.config.ts): it must not inherit the setting.
afterAll(() => { delete process.env.CELLPORT_TEST_GATEWAY_RELAY; });
// gateway.test.ts may have run in this fork already: a fresh module graph, so importing it registers its suites again.
vi.resetModules();
await import('./gateway.test.js');
