// gateway.test.ts again, with the gateway relaying pooled connections in JavaScript (proxy/splice.ts): the relay of a
// gateway that cannot build the kernel relay (decision 050), and of TLS links. The variable is read when each suite's
// gateway starts, after this file's imports.
import { afterAll, vi } from 'vitest';

process.env.CELLPORT_TEST_GATEWAY_RELAY = 'js';
// Left behind by nothing: a process that runs more test files after this one (vitest without isolation, a watch
// run) must not inherit the setting, and must import gateway.test.ts afresh so that its suites register again.
afterAll(() => { delete process.env.CELLPORT_TEST_GATEWAY_RELAY; });
vi.resetModules();
await import('./gateway.test.js');
