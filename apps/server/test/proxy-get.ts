import { once } from 'node:events';
import { connect } from 'node:net';

/**
 * A GET of `target` through a customer's HTTP proxy port, on a raw socket (HTTP/1.0: no chunked body), as a customer's
 * curl -x would send it: the status and the trimmed body. Rejects when the port refuses the connection.
 */
export async function getThroughProxy(proxy: { host: string; port: number; login: string; password: string }, target: string):
  Promise<{ status: number; body: string }> {
  const socket = connect(proxy.port, proxy.host);
  socket.on('error', () => {});
  await once(socket, 'connect');
  const { host } = new URL(target);
  const auth = Buffer.from(`${proxy.login}:${proxy.password}`).toString('base64');
  socket.write(`GET ${target} HTTP/1.0\r\nHost: ${host}\r\nProxy-Authorization: Basic ${auth}\r\nConnection: close\r\n\r\n`);
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const text = Buffer.concat(chunks).toString('latin1');
  return { status: Number(text.slice(9, 12)), body: (text.split('\r\n\r\n')[1] ?? '').trim() };
}
