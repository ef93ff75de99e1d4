// Per-port limits' bounds, choices and English messages (issue 18, item 3; decision 030): plain values, no zod.
// port-limits.ts builds its schemas from them and re-exports them; the web's quota meter imports them from here and
// loads neither the schemas nor zod (issue 31, item 4).

export const PORT_LIMITS = {
  /** The connection limit of tariffs that do not set one (the agent's former fixed limit). */
  defaultMaxConnections: 200,
  maxMbps: 100_000,
  maxConnections: 100_000,
  maxQuotaGb: 1_000_000,
  /** A quota of N GB is N × 10^9 bytes, both directions together. */
  bytesPerGb: 1_000_000_000,
  /** 1 Mbit/s = 125,000 bytes per second. */
  bytesPerMbit: 125_000,
  /** The customer is told once a month at each of these shares of the quota (percent). */
  warnPercent: 80,
} as const;

export const OVER_QUOTA_ACTIONS = ['throttle', 'block'] as const;
export type OverQuotaAction = (typeof OVER_QUOTA_ACTIONS)[number];
/** Where a port stands against its quota this month: under it (or none), or past it and throttled or blocked. */
export const QUOTA_STATES = ['ok', 'throttled', 'blocked'] as const;
export type QuotaState = (typeof QUOTA_STATES)[number];

export const LIMITS_MESSAGES = {
  mbps: `Use a whole number of Mbit/s from 1 to ${PORT_LIMITS.maxMbps}, or leave it empty for no cap`,
  connections: `Use a whole number of connections from 1 to ${PORT_LIMITS.maxConnections}`,
  quota: `Use a whole number of GB from 1 to ${PORT_LIMITS.maxQuotaGb}, or leave it empty for no quota`,
  throttle: 'Say how many Mbit/s a port is throttled to past its quota',
  overQuota: "Past the quota a port is either throttled ('throttle') or blocked ('block')",
} as const;
