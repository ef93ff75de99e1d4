/**
 * Reads an IPN's form-encoded fields. A field that appears twice makes the message unreadable (null): PayPal never
 * repeats a field, and reading one copy while PayPal validated the other would open a gap.
 */
export function parseIpnBody(rawBody: string | Buffer): Record<string, string> | null {
  const text = typeof rawBody === 'string' ? rawBody : rawBody.toString('latin1');
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, key)) return null;
    fields[key] = value;
  }
  return fields;
}
