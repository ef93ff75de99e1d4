/** A text message a chat sent the bot. */
export interface TelegramIncoming {
  chatId: string;
  /** The sender's @username, else their name: what the Account page shows as the linked chat. */
  chatName: string;
  /** Telegram's language_code of the sender (used before the chat is linked to an account). */
  languageCode?: string;
  text: string;
}

/** Answers one message; null: no answer. */
export type TelegramHandler = (message: TelegramIncoming) => Promise<string | null>;

/**
 * The Telegram Bot API as the server uses it. Two adapters: grammy against the Bot API (telegram-grammy.ts) and the
 * offline sandbox (telegram-sandbox.ts), which writes messages to the log, as the sandbox mailer keeps mail in the
 * outbox.
 */
export interface TelegramGateway {
  readonly sandbox: boolean;
  /** The bot's @username (getMe), for the deep links. */
  username(): Promise<string>;
  send(chatId: string, text: string): Promise<void>;
  /** Long polling: resolves once getUpdates runs; `onStopped` hears when it ends by itself (an error). */
  startPolling(handler: TelegramHandler, onStopped: (err: unknown) => void): Promise<void>;
  stopPolling(): Promise<void>;
  /** Webhook mode: Telegram POSTs updates to `url` with the secret in X-Telegram-Bot-Api-Secret-Token. */
  setWebhook(url: string, secretToken: string): Promise<void>;
  handleUpdate(update: unknown, handler: TelegramHandler): Promise<void>;
}
