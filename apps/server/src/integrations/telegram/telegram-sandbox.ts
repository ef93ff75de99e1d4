import type { FastifyBaseLogger } from 'fastify';
import type { TelegramGateway, TelegramHandler } from './telegram-gateway.js';

/**
 * No bot token (outside production): nothing reaches Telegram. Messages the bot would send are written to the log,
 * so `npm start` works offline and a person can read them there.
 */
export class SandboxTelegram implements TelegramGateway {
  readonly sandbox = true;
  constructor(private readonly log: FastifyBaseLogger) {}

  async username(): Promise<string> { return 'cellport_sandbox_bot'; }

  async send(chatId: string, text: string): Promise<void> {
    this.log.info({ chatId, text }, 'telegram (sandbox): message not sent, no bot token is configured');
  }

  async startPolling(): Promise<void> {}
  async stopPolling(): Promise<void> {}
  async setWebhook(): Promise<void> {}
  async handleUpdate(_update: unknown, _handler: TelegramHandler): Promise<void> {}
}
