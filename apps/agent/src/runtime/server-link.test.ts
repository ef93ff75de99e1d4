import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../proxy/types.js';
import { connectToServer } from './server-link.js';

/** A port nothing listens on: bound, then closed, so a connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The first warning the link logs while it cannot reach the server. */
async function firstWarning(hasState: boolean): Promise<string> {
  const url = `http://127.0.0.1:${await closedPort()}`;
  const stop = new AbortController();
  const warned = new Promise<string>((resolve) => {
    const log = { info() {}, error() {}, debug() {}, warn: (_o: unknown, message: string) => resolve(message) } as unknown as Logger;
    const socket = connectToServer(url, 'chk_test', log, stop.signal, () => hasState);
    stop.signal.addEventListener('abort', () => socket.close());
  });
  const message = await warned;
  stop.abort();
  return message;
}

describe('the agent\'s link to the server, while the server does not answer', () => {
  it('says it serves the last state only when it has one (issue 28, item 11)', async () => {
    expect(await firstWarning(false)).toMatch(/nothing to serve until the server first answers/);
    expect(await firstWarning(true)).toMatch(/serving the last state/);
  });
});
