// Catalog, buying from the balance, renewals, coupons and proxy management (issue 3).
// Messages with {{name}} are templates: the server fills them and also sends the value as a field of the
// error body (OUT_OF_STOCK → `available`, ROTATION_TOO_SOON → `retryAfter` seconds), so clients can translate.
export const CATALOG_ERRORS = {
  COUNTRY_NOT_FOUND: 'This country is not available',
  TARIFF_NOT_FOUND: 'This tariff is not available',
  TARIFF_MISMATCH: 'This tariff does not match the chosen country, carrier, region or port type',
  OUT_OF_STOCK: 'Not enough free ports for this choice: {{available}} available',
  INSUFFICIENT_FUNDS: 'Not enough money on your balance. Please add funds.',
  COUPON_UNKNOWN: 'This coupon does not exist',
  COUPON_EXPIRED: 'This coupon is not valid at this time',
  COUPON_USED_UP: 'This coupon has already been used up',
  COUPON_NOT_APPLICABLE: 'This coupon is not valid for this tariff or country',
  PORT_NOT_RENEWABLE: 'This port can no longer be renewed',
  /** Only ever one of the customer's own logins: chosen logins carry the account's prefix (decision 035). */
  PROXY_LOGIN_TAKEN: 'You already use this proxy login on another of your ports. Please choose another.',
  /** A whitelist entry that shares addresses with another port's on the same modem (`entry` says which). */
  WHITELIST_OVERLAP: '{{entry}} overlaps the whitelist of another port on the same modem. List a narrower address, or connect with the login and password.',
  ROTATION_TOO_SOON: 'You can rotate this port once a minute. Try again in {{retryAfter}} s.',
  ROTATION_FAILED: 'The modem could not change its IP. Please try again.',
  /** The agent reconnected the modem several times and the carrier gave back the same public IP each time. */
  ROTATION_IP_COLLISION: 'The carrier gave the modem the same IP again, so your IP did not change. Please try again in a few minutes.',
  MODEM_OFFLINE: 'The modem is offline right now. Please try again later.',
  /** A customer's request for another modem (issue 15, item 6): once per port in 24 h; `hours` and `retryAt` say when. */
  REPLACEMENT_TOO_SOON: 'You can ask for a new modem for this port once a day. Try again in {{hours}} h.',
  PORT_EXPIRED: 'This port has expired. Renew it to use it again.',
  /** On-demand rotation of a shared port (button, link, API, MCP): `nextRotationAt` says when the schedule rotates it. */
  SHARED_PORT_ROTATION: 'A shared port gets a new IP on its modem\'s schedule, for everyone on the modem at once; it cannot be rotated on demand.',
  SHARED_ROTATION_FIXED: 'A shared port rotates on its modem\'s schedule; choose a dedicated port to set your own interval',
  /** A preset chosen for a port whose host cannot apply presets (issue 30); `reason` is the host's, in its agent's words. */
  FINGERPRINT_UNAVAILABLE: 'This port\'s host cannot apply fingerprint presets right now, so it keeps its own fingerprint.',
  /** "What a site sees" while no fingerprint echo is set up (FINGERPRINT_ECHO_URL). */
  FINGERPRINT_ECHO_NOT_CONFIGURED: 'The fingerprint check is not set up on this service yet.',
  /** The check's connection through the port to the echo failed or timed out; `reason` says where. */
  FINGERPRINT_CHECK_FAILED: 'The check could not reach the fingerprint echo through this port. Please try again in a minute.',
  /** The port's host does not serve its latest change (a preset just chosen) within the 3 s a change takes. */
  FINGERPRINT_STILL_APPLYING: 'The change is still being applied to this port. Please try again in a few seconds.',
  /** Issue 27, item 8: a tariff's paid trial is once per customer, one port, without a coupon. */
  TRIAL_NOT_OFFERED: 'This tariff offers no trial',
  TRIAL_USED: 'You have already used your trial. Choose a regular period to continue.',
  TRIAL_ONE_PORT: 'A trial is one port, without a coupon',
  IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was already used for a different request',
} as const;
