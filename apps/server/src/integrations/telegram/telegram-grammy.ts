import type { FastifyBaseLogger } from 'fastify';
import { Bot, type Context } from 'grammy';
import type { Update } from 'grammy/types';
import type { TelegramGateway, TelegramHandler, TelegramIncoming } from './telegram-gateway.js';

/**
 * The Bot API through grammy (decision 023), with `client.apiRoot` pointed at the configured base URL
 * (TELEGRAM_API_ROOT: Telegram, a local Bot API server, or the tests' fake on 127.0.0.1).
 */
export class GrammyTelegram implements TelegramGateway {
  readonly sandbox = false;
  private readonly bot: Bot;
  private handler: TelegramHandler | null = null;
  private polling: Promise<void> | null = null;

  constructor(token: string, apiRoot: string, private readonly log: FastifyBaseLogger) {
    this.bot = new Bot(token, { client: { apiRoot: apiRoot.replace(/\/$/, '') } });
    this.bot.on('message:text', async (c) => {
      const reply = this.handler ? await this.handler(incoming(c)) : null;
      if (reply) await c.reply(reply, { link_preview_options: { is_disabled: true } });
    });
    this.bot.catch((err) => this.log.error({ err: err.error }, 'telegram: handling an update failed'));
  }

  async username(): Promise<string> {
    if (!this.bot.isInited()) await this.bot.init();
    return this.bot.botInfo.username;
  }

  async send(chatId: string, text: string): Promise<void> {
    await this.bot.api.sendMessage(chatId, text, { link_preview_options: { is_disabled: true } });
  }

  async startPolling(handler: TelegramHandler, onStopped: (err: unknown) => void): Promise<void> {
    this.handler = handler;
    if (this.polling) return;
    await this.username();
    await new Promise<void>((resolve, reject) => {
      let started = false;
      // start() deletes a webhook first, then calls getUpdates in a loop until stop(); it rejects on a fatal error
      // (a wrong token, or 409: another consumer of getUpdates).
      this.polling = this.bot.start({ allowed_updates: ['message'], onStart: () => { started = true; resolve(); } })
        .then(() => { this.polling = null; if (!started) resolve(); })
        .catch((err: unknown) => {
          this.polling = null;
          if (started) onStopped(err);
          else reject(err instanceof Error ? err : new Error(String(err)));
        });
    });
  }

  async stopPolling(): Promise<void> {
    if (!this.polling) return;
    const running = this.polling;
    await this.bot.stop();
    await running;
  }

  async setWebhook(url: string, secretToken: string): Promise<void> {
    await this.username();
    await this.bot.api.setWebhook(url, { secret_token: secretToken, allowed_updates: ['message'] });
  }

  async handleUpdate(update: unknown, handler: TelegramHandler): Promise<void> {
    this.handler = handler;
    await this.username();
    await this.bot.handleUpdate(update as Update);
  }
}

function incoming(c: Context & { message: { text: string } }): TelegramIncoming {
  const from = c.from;
  const name = from?.username ? `@${from.username}` : [from?.first_name, from?.last_name].filter(Boolean).join(' ');
  return { chatId: String(c.chat!.id), chatName: name.slice(0, 100), languageCode: from?.language_code, text: c.message.text };
}
