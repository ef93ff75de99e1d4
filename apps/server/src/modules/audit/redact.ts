/** Keys whose values never reach the audit log: password hashes, TOTP secrets, tokens and keys. */
const SECRET_KEY = /(password|passwd|secret|token|totp|hash|api_?key|private|xpub|cookie)/i;
export const REDACTED = '[redacted]';

/**
 * A JSON-safe copy of a value for the audit log: secrets replaced, bigints as strings, dates as ISO strings.
 * Redaction is by key name, so a new secret column is covered as long as its name says what it is.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'object') return value;
  if (depth > 8) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] = SECRET_KEY.test(key) ? (v === null || v === undefined ? null : REDACTED) : redact(v, depth + 1);
  }
  return out;
}
