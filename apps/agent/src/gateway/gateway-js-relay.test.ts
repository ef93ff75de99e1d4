// gateway.test.ts again, with the gateway relaying pooled connections in JavaScript (proxy/splice.ts): the relay of a
// gateway that cannot build the kernel relay (decision 050), and of TLS links. The variable is read when each suite's
// gateway starts, after this file's imports.
process.env.CELLPORT_TEST_GATEWAY_RELAY = 'js';
export {};
await import('./gateway.test.js');
