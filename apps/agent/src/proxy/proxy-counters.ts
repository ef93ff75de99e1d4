import type { UpstreamFailure } from './types.js';

// Plain running counts of what the proxies did (issue 17, metrics): connections taken and connections refused, by
// why. One set per host agent, shared by its modems' proxies (a proxy replaced by a port change keeps counting on).
// The data path only adds 1 to a number, once per connection or refusal, never per chunk; the metrics read them when
// scraped (runtime/agent-metrics.ts).

export type ConnectionKind = 'http' | 'socks5' | 'udp';

/** Why a customer's connection (or an HTTP request on it) was refused, as the metrics label it. */
export const REFUSAL_REASONS = [
  'auth', // a login and password that match no port
  'auth_blocked', // credentials not even checked: the address (or the login, from it) failed too often (auth-guard.ts)
  'whitelist', // no credentials, and the client's address is on no port's whitelist
  'port_inactive', // the port is suspended, or its owner deactivated
  'port_expired', // past its expiry by the agent's clock
  'quota_blocked', // its monthly traffic is used up
  'connection_limit', // the port already has its most connections open
  'target_policy', // the target is loopback, private, a management network…
  'rotating', // the modem was still changing its IP when the wait ran out
  'bad_request', // not a proxy request (HTTP 400), a SOCKS command or address type not supported
  'stopping', // the agent is draining (SIGTERM) or closing
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** Why a request that was allowed got no connection to its target. */
export const UPSTREAM_ERRORS = ['unresolvable', 'family', 'unreachable', 'connection_refused', 'timeout', 'failed'] as const;
export type UpstreamErrorReason = (typeof UPSTREAM_ERRORS)[number];

const zeros = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

export class ProxyCounters {
  /** Connections accepted, by kind (a UDP association counts once more, as udp, when it opens). */
  readonly accepted: Record<ConnectionKind, number> = { http: 0, socks5: 0, udp: 0 };
  readonly refused = zeros(REFUSAL_REASONS);
  readonly upstreamErrors = zeros(UPSTREAM_ERRORS);
  /** Blocks started for password guessing (auth-guard.ts): of a client address, or of a login. */
  readonly authBlocks: Record<'address' | 'login', number> = { address: 0, login: 0 };
  /** Tunnels handed to the kernel relay (ModemProxy.relayTunnel); the others were relayed in JavaScript. */
  kernelTunnels = 0;

  refuse(reason: RefusalReason): void {
    this.refused[reason]++;
  }

  /** A failure a front end answered the customer with: a refusal (policy, rotation) or an error reaching the target. */
  upstreamFailed(failure: UpstreamFailure): void {
    if (failure === 'refused') this.refused.target_policy++;
    else if (failure === 'rotating') this.refused.rotating++;
    else this.upstreamErrors[failure === 'connection-refused' ? 'connection_refused' : failure === 'fingerprint' ? 'failed' : failure]++;
  }
}
