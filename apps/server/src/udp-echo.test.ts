import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUdpEcho, type UdpEcho } from './udp-echo.js';

// The agents' UDP check target (issue 27, item 8): DNS-shaped queries come back as they were; nothing else does.
let echo: UdpEcho;
beforeAll(async () => { echo = await startUdpEcho('127.0.0.1', 0); });
afterAll(async () => { await echo.close(); });

const query = (id: number) => { const b = Buffer.alloc(29); b.writeUInt16BE(id, 0); b.writeUInt16BE(0x0100, 2); return b; };

describe('UDP echo', () => {
  it('answers a query with the same bytes; an answer-shaped or tiny datagram gets nothing', async () => {
    const client = createSocket('udp4');
    const got: Buffer[] = [];
    const marker = new Promise<void>((resolve) => client.on('message', (m) => { got.push(m); if (m.readUInt16BE(0) === 2) resolve(); }));
    await new Promise<void>((r) => client.bind(0, '127.0.0.1', r));
    const answerShaped = query(7);
    answerShaped[2] = 0x81;
    client.send(Buffer.from([1, 2, 3]), echo.port, '127.0.0.1');
    client.send(answerShaped, echo.port, '127.0.0.1');
    client.send(query(1), echo.port, '127.0.0.1');
    // The marker, sent last: once it is back, anything answered before it has arrived too.
    client.send(query(2), echo.port, '127.0.0.1');
    await marker;
    client.close();
    expect(got.map((m) => m.readUInt16BE(0))).toEqual([1, 2]);
    expect(got[0]).toEqual(query(1));
  });
});
