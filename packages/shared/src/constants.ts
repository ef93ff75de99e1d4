// Business constants of spec §9. Every number a person or a client relies on lives here once.
export const API_BASE = '/api/v1';
export const LANGUAGES = ['en', 'ru', 'cn'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';
export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 16;
export const NAME_MIN = 3;
export const PURPOSE_MIN = 20;

export const NOTIFICATION_POLL_MS = 3_000;
export const PENDING_CRYPTO_POLL_MS = 5_000;
export const ADDING_PROXY_BANNER_MS = 8_000;
export const REALTIME_CONNECT_WAIT_MS = 300;
/**
 * The server → client realtime events; their payloads are `realtimeEvents` in schemas/realtime.ts. Listed here,
 * apart from the schemas, so the web's shell subscribes to them without loading every payload schema.
 */
export const REALTIME_EVENT_NAMES = [
  'modem', 'notification', 'payment', 'pending_payment', 'pending_crypto_payment', 'balance', 'tariff', 'support_ticket',
] as const;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export const TOP_UP_PRESETS = [25, 50, 100, 250, 500] as const;
export const TOP_UP_DEFAULT = 50;
export const TOP_UP_MIN = 1;
export const CARD_AMOUNT_MULTIPLIER = 100;
export const PAYPAL_CURRENCY = 'USD';

export const COINS = ['btc', 'usdt'] as const;
export type Coin = (typeof COINS)[number];
/** Minor units per whole coin: USD and USDT in micro-units, BTC in satoshi (ARCHITECTURE.md, money). */
export const MINOR_UNITS: Record<Coin, bigint> = { usdt: 1_000_000n, btc: 100_000_000n };
export const BTC_MODAL_DECIMALS = 6;
export const BTC_BALANCE_DECIMALS = 8;
export const USDT_DECIMALS = 2;

export const TOAST_MS_DASHBOARD = 3_000;
export const TOAST_MS_DEFAULT = 5_000;
export const COPIED_TOAST_MS = 10;

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const EMAIL_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
