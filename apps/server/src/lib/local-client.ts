/**
 * The person at this machine: a connection from exactly 127.0.0.1 or ::1 (also as ::ffff:127.0.0.1), the socket's own
 * address, never a header. The rest of 127.0.0.0/8 is not: the embedded agent's simulated modems send customers'
 * traffic from 127.0.x.y (never 127.0.0.1), also when they reach this server on its public address, and a customer
 * read an operator's password-reset link that way (issue 26, item 4).
 */
export function isLocalClient(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
