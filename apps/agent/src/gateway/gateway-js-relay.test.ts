// gateway.test.ts again, with the gateway relaying pooled connections in JavaScript (proxy/splice.ts): the relay of a
// gateway that cannot build the kernel relay (decision 050), and of TLS links. The variable is read when each suite's
// gateway starts, after this file's imports, and removed after them, so nothing run later in this process inherits it.
import { afterAll } from 'vitest';

process.env.CELLPORT_TEST_GATEWAY_RELAY = 'js';
afterAll(() => { delete process.env.CELLPORT_TEST_GATEWAY_RELAY; });
await import('./gateway.test.js');
