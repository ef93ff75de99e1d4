import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A message the bot sent (sendMessage), as the fake recorded it. */
export interface SentMessage { chatId: string; text: string }

export interface FakeTelegram {
  /** The Bot API base URL to give the server (TELEGRAM_API_ROOT). */
  apiRoot: string;
  token: string;
  username: string;
  sent: SentMessage[];
  webhook: { url: string; secretToken: string | null } | null;
  /** Queues an update: a private text message from `chatId`, delivered to the next (or the waiting) getUpdates. */
  userSays(chatId: number, text: string, from?: { username?: string; first_name?: string; language_code?: string }): void;
  /** Resolves with the first message sent to `chatId` (from now on, or already sent after `after`) that matches. */
  nextMessage(chatId: number, match?: (text: string) => boolean, after?: number): Promise<SentMessage>;
  /** Resolves once a getUpdates is waiting: the bot is long-polling. */
  polling(): Promise<void>;
  /** Every Bot API method called, in order. */
  calls: string[];
  close(): Promise<void>;
}

/**
 * A small Bot API on 127.0.0.1 answering as Telegram does (`{ok, result}` / `{ok: false, error_code, description}`):
 * getMe, getUpdates with long polling (held until an update arrives or its timeout), sendMessage, setWebhook,
 * deleteWebhook. The server's real grammy adapter talks to it through `client.apiRoot`. Used by the server tests
 * and the browser test (e2e/telegram.e2e.ts).
 */
export async function startFakeTelegram(options: { token?: string; username?: string } = {}): Promise<FakeTelegram> {
  const token = options.token ?? '123456789:AAFakeTokenForTestsOnly_abcdefghijk';
  const username = options.username ?? 'cellport_test_bot';
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const updates: Array<{ update_id: number; message: Record<string, unknown> }> = [];
  let nextUpdateId = 1;
  let nextMessageId = 1;
  let waiting = 0;
  const fake: FakeTelegram = {
    apiRoot: '', token, username, sent: [], webhook: null, calls: [],
    userSays(chatId, text, from = {}) {
      updates.push({
        update_id: nextUpdateId++,
        message: {
          message_id: nextMessageId++, date: Math.floor(Date.now() / 1000), text,
          chat: { id: chatId, type: 'private', first_name: from.first_name ?? 'Test' },
          from: { id: chatId, is_bot: false, first_name: from.first_name ?? 'Test', username: from.username, language_code: from.language_code ?? 'en' },
          ...(text.startsWith('/') ? { entities: [{ type: 'bot_command', offset: 0, length: text.split(/\s/)[0]!.length }] } : {}),
        },
      });
      events.emit('update');
    },
    nextMessage(chatId, match = () => true, after = fake.sent.length) {
      const found = (m: SentMessage) => m.chatId === String(chatId) && match(m.text);
      const already = fake.sent.slice(after).find(found);
      if (already) return Promise.resolve(already);
      return new Promise((resolve) => {
        const onSent = (m: SentMessage) => { if (found(m)) { events.off('sent', onSent); resolve(m); } };
        events.on('sent', onSent);
      });
    },
    polling() {
      if (waiting > 0) return Promise.resolve();
      return new Promise((resolve) => events.once('waiting', () => resolve()));
    },
    close: async () => {},
  };

  const ok = (res: ServerResponse, result: unknown) => reply(res, 200, { ok: true, result });
  const fail = (res: ServerResponse, code: number, description: string) => reply(res, code, { ok: false, error_code: code, description });

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = /^\/bot([^/]+)\/(\w+)$/.exec(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
      if (!m) return fail(res, 404, 'Not Found');
      if (m[1] !== token) return fail(res, 401, 'Unauthorized');
      const method = m[2]!;
      fake.calls.push(method);
      let body: Record<string, unknown> = {};
      try { if (chunks.length) body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>; } catch { return fail(res, 400, 'Bad Request: can\'t parse JSON'); }
      switch (method) {
        case 'getMe':
          return ok(res, { id: Number(token.split(':')[0]), is_bot: true, first_name: 'Cellport test', username, can_join_groups: false, can_read_all_group_messages: false, supports_inline_queries: false });
        case 'deleteWebhook':
          fake.webhook = null;
          return ok(res, true);
        case 'setWebhook':
          fake.webhook = { url: String(body.url), secretToken: typeof body.secret_token === 'string' ? body.secret_token : null };
          return ok(res, true);
        case 'sendMessage': {
          if (body.chat_id === undefined || typeof body.text !== 'string' || body.text === '') return fail(res, 400, 'Bad Request: message text is empty');
          const message: SentMessage = { chatId: String(body.chat_id), text: body.text };
          fake.sent.push(message);
          events.emit('sent', message);
          return ok(res, { message_id: nextMessageId++, date: Math.floor(Date.now() / 1000), chat: { id: Number(body.chat_id), type: 'private' }, text: body.text });
        }
        case 'getUpdates': {
          if (fake.webhook) return fail(res, 409, 'Conflict: can\'t use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first');
          const offset = Number(body.offset ?? 0);
          // Telegram forgets the updates before the offset: they are confirmed.
          while (updates.length && updates[0]!.update_id < offset) updates.shift();
          const limit = Number(body.limit ?? 100);
          if (updates.length || !Number(body.timeout ?? 0)) return ok(res, updates.slice(0, limit));
          waiting++;
          let done = false;
          const finish = () => {
            if (done) return;
            done = true;
            waiting--;
            clearTimeout(timer);
            events.off('update', finish);
            events.off('closing', finish);
            if (!res.writableEnded && !res.destroyed) ok(res, updates.slice(0, limit));
          };
          const timer = setTimeout(finish, Math.min(Number(body.timeout), 50) * 1000);
          events.on('update', finish);
          events.on('closing', finish);
          req.socket.once('close', finish);
          events.emit('waiting');
          return;
        }
        default:
          return fail(res, 404, 'Not Found: method not found');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.apiRoot = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve, reject) => {
    events.emit('closing');
    server.closeAllConnections();
    server.close((err) => (err ? reject(err) : resolve()));
  });
  return fake;
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
