// The requests scripts/image/proxy-check.sh sends through the reverse proxy (Node 20, no dependencies).
//   node proxy-probe.mjs sticky BASE N     N socket.io long-polling sessions, each: handshake, CONNECT (POST "40"),
//                                          poll for the answer. With the proxy's cookie kept every step must reach
//                                          the instance that holds the session; without it, steps that land on the
//                                          other instance get "Session ID unknown". Prints both counts as JSON.
//   node proxy-probe.mjs watch BASE FILE   GET /readyz every 50 ms until FILE exists; prints the answers' counts.
import { existsSync } from 'node:fs';

const [mode, base, arg] = process.argv.slice(2);

async function pollingSession(keepCookie) {
  let cookie = '';
  const send = async (method, query, body) => {
    const response = await fetch(`${base}/socket.io/?EIO=4&transport=polling${query}`, {
      method, body, headers: cookie ? { cookie } : {}, signal: AbortSignal.timeout(10_000),
    });
    const set = response.headers.get('set-cookie');
    if (keepCookie && set) cookie = set.split(';')[0];
    return { status: response.status, text: await response.text() };
  };
  const handshake = await send('GET', '');
  if (handshake.status !== 200) return `handshake ${handshake.status}`;
  const { sid } = JSON.parse(handshake.text.slice(1));
  const connect = await send('POST', `&sid=${sid}`, '40');
  if (connect.status !== 200) return `connect ${connect.status} ${connect.text}`;
  // No realtime token: the server's middleware refuses the CONNECT, and that refusal is queued on this session.
  const answer = await send('GET', `&sid=${sid}`);
  if (answer.status !== 200 || !answer.text.startsWith('44')) return `poll ${answer.status} ${answer.text}`;
  return 'ok';
}

async function sticky(n) {
  const result = {};
  for (const keepCookie of [true, false]) {
    const outcomes = {};
    for (let i = 0; i < n; i += 1) {
      const outcome = (await pollingSession(keepCookie)).replace(/"sid":"[^"]+"/, '');
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    result[keepCookie ? 'withCookie' : 'withoutCookie'] = outcomes;
  }
  return result;
}

async function watch(stopFile) {
  const counts = {};
  while (!existsSync(stopFile)) {
    let key;
    try { key = String((await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(15_000) })).status); }
    catch (error) { key = `error ${error.cause?.code ?? error.message}`; }
    counts[key] = (counts[key] ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return counts;
}

if (mode === 'sticky') console.log(JSON.stringify(await sticky(Number(arg))));
else if (mode === 'watch') console.log(JSON.stringify(await watch(arg)));
else { console.error('usage: proxy-probe.mjs sticky BASE N | watch BASE STOPFILE'); process.exit(64); }
