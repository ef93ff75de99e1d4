// The windows a port's uptime is measured over and how many past IPs its history lists (port-history.ts): plain
// values, no zod, so Your Proxies shows the choices without loading the response schema and zod (issue 31, item 4).

/** The windows uptime is measured over, and their length in hours. */
export const UPTIME_WINDOWS = { day: 24, week: 24 * 7, month: 24 * 30 } as const;
export type UptimeWindow = keyof typeof UPTIME_WINDOWS;
/** How many past IPs the history lists. */
export const PORT_HISTORY_IPS = 10;
