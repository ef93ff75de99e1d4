import { parseArgs } from 'node:util';
import { FingerprintEcho } from './fingerprint/echo/fingerprint-echo.js';

// `npm run fingerprint-echo -- [--host 0.0.0.0] [--port 9443] [--iface any] [--log-syns]`: the fingerprint echo (issue 30;
// docs/operations.md, "Fingerprint echo"). Runs as root: Debian's p0f captures the SYNs.
const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '0.0.0.0' },
    port: { type: 'string', default: '9443' },
    iface: { type: 'string', default: 'any' },
    /** Prints every SYN p0f reports as a JSON line (the CI test reads what the far end saw). */
    'log-syns': { type: 'boolean', default: false },
  },
});
const echo = new FingerprintEcho({
  host: values.host!, port: Number(values.port), iface: values.iface!,
  ...(values['log-syns'] ? { onSyn: (syn) => process.stdout.write(`${JSON.stringify({ syn })}\n`) } : {}),
});
echo.start().then(() => {
  process.stdout.write(`${JSON.stringify({ level: 'info', msg: 'Fingerprint echo listening', host: values.host, port: echo.boundPort, iface: values.iface })}\n`);
}, (err: unknown) => {
  process.stderr.write(`The fingerprint echo could not start: ${(err as Error).message}\n`);
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void echo.close().finally(() => process.exit(0)));
