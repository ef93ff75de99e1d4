// The catalog's limits, choices and English messages (issue 3): plain values, no zod. catalog.ts builds its schemas
// from them and re-exports them; the web imports them from here, so a page that shows a limit does not load the
// catalog's schemas and zod with it (issue 31, item 4).

export const CATALOG_LIMITS = {
  modemCountMin: 1,
  modemCountMax: 50,
  renewPeriodsMin: 1,
  renewPeriodsMax: 24,
  renewDaysMin: 1,
  renewDaysMax: 365,
  basketMax: 50,
  modemNameMax: 60,
  proxyLoginMin: 4,
  proxyLoginMax: 32,
  /** A chosen proxy password (issue 26, item 6); generated ones have 14 characters. */
  proxyPasswordMin: 10,
  proxyPasswordMax: 32,
  whitelistMax: 20,
  couponNameMax: 64,
  /** Per-port tags (issue 16, item 4): how many a port carries and how long each is. */
  portTagsMax: 10,
  portTagMax: 32,
  portNoteMax: 500,
  /** Seconds a port must wait between two rotations. */
  rotationCooldownSeconds: 60,
} as const;

/** Rotation-interval choices in minutes; 0 means on demand only (link or button). */
export const ROTATION_INTERVALS = [0, 5, 10, 15, 30, 60] as const;
export const TARIFF_PERIODS = ['day', 'week', 'month'] as const;
export type TariffPeriod = (typeof TARIFF_PERIODS)[number];
export const PERIOD_DAYS: Record<TariffPeriod, 1 | 7 | 30> = { day: 1, week: 7, month: 30 };
export const APPLY_STATUSES = ['idle', 'rotating', 'applying', 'failed'] as const;
export type ApplyStatus = (typeof APPLY_STATUSES)[number];

/** English validation messages; the web translates them through the `errors` namespace keys of the same name. */
export const CATALOG_MESSAGES = {
  proxyLogin: 'Login must be 4-32 characters: letters, digits, _ or -',
  proxyPassword: 'Password must be 10-32 characters with at least one letter and one digit, without spaces, : or @',
  whitelistEntry: 'Each whitelist entry must be an IPv4 or IPv6 address or a CIDR range',
  whitelistTooBroad: 'A whitelist range may be at most an IPv4 /16 or an IPv6 /48: list your own networks',
  whitelistNotPublic: 'A whitelist entry must be a public address: private, loopback and other special ranges never reach the proxy from the internet',
  whitelistSize: 'The whitelist holds at most 20 entries',
  modemName: 'Name must be 1-60 characters long',
  basketEntry: 'Choose either a number of periods (1-24) or of days (1-365) for each port',
  basketSize: 'Choose between 1 and 50 ports to renew',
  modemCount: 'Choose between 1 and 50 ports',
  portTag: 'A tag is 1-32 letters, digits, -, _, . or :',
  portTags: 'A port carries at most 10 tags',
  portNote: 'A note is at most 500 characters',
} as const;

/** Optional header: a retry with the same key (per customer) returns the first answer and changes nothing. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
