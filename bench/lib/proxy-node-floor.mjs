// The least a Node.js HTTP CONNECT proxy can do, as a reference row in bench/proxy.mjs's tunnels step (issue 31,
// item 1): accept, read the head, check Basic credentials by comparing one string, connect, answer 200, relay both
// ways with 'data' and write(), close each side when the other closes. No egress address (so no bind: the kernel
// picks the source in connect), no timers, no limits, no metering, no timing-safe compare. Whatever our proxy costs
// above this row is our own code; what this row costs above squid is Node's own per-connection work (two net.Socket
// objects, their streams, the event loop), which no JavaScript change can remove.
// argv: user pass. Prints { port } once listening on 127.0.0.1; exits when stdin closes.
import net from 'node:net';

const [user, pass] = process.argv.slice(2);
const credentials = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

const server = net.createServer({ noDelay: true }, (client) => {
  let head = '';
  const onHead = (chunk) => {
    head += chunk.latin1Slice(0, chunk.length);
    if (!head.includes('\r\n\r\n')) return;
    client.removeListener('data', onHead);
    if (!head.includes(`\r\nProxy-Authorization: ${credentials}\r\n`)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const authority = head.slice(head.indexOf(' ') + 1, head.indexOf(' HTTP/'));
    const colon = authority.lastIndexOf(':');
    const target = net.connect({ host: authority.slice(0, colon), port: Number(authority.slice(colon + 1)), noDelay: true });
    target.on('connect', () => {
      client.write('HTTP/1.1 200 Connection established\r\n\r\n');
      client.on('data', (data) => target.write(data));
      target.on('data', (data) => client.write(data));
    });
    target.on('end', () => client.end());
    client.on('end', () => target.end());
    target.on('error', () => client.destroy());
    client.on('error', () => target.destroy());
    target.on('close', () => client.destroy());
    client.on('close', () => target.destroy());
  };
  client.on('data', onHead);
});
server.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.stdin.on('end', () => process.exit(0)).resume();
