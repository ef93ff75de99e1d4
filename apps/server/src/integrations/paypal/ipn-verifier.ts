export type IpnVerification = 'VERIFIED' | 'INVALID';

/** PayPal could not be asked (network, timeout, unexpected answer): answer the IPN with an error so PayPal resends. */
export class IpnVerificationError extends Error {
  override readonly name = 'IpnVerificationError';
}

const PREFIX = Buffer.from('cmd=_notify-validate&', 'ascii');

/**
 * Asks PayPal whether an IPN really came from it: posts `cmd=_notify-validate&` followed by the message exactly as
 * received, byte for byte (same order, same encoding), to the sandbox or live validation endpoint. PayPal answers
 * the single word VERIFIED or INVALID. Anything else is an error, never a pass.
 * Pass the request body as the Buffer the server received; a string is sent as UTF-8 (identical for the
 * percent-encoded ASCII PayPal sends).
 */
export async function verifyIpn(
  rawBody: string | Buffer,
  options: { verifyUrl: string; timeoutMs?: number },
): Promise<IpnVerification> {
  const body = Buffer.concat([PREFIX, typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody]);
  let res: Response;
  try {
    res = await fetch(options.verifyUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        // PayPal rejects validation requests that carry no User-Agent.
        'user-agent': 'Cellport-IPN-Verifier/1.0',
      },
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
  } catch (err) {
    throw new IpnVerificationError(`PayPal IPN validation request failed: ${(err as Error).message}`);
  }
  const text = (await res.text()).trim();
  if (!res.ok) throw new IpnVerificationError(`PayPal IPN validation answered HTTP ${res.status}`);
  if (text === 'VERIFIED' || text === 'INVALID') return text;
  throw new IpnVerificationError(`PayPal IPN validation answered neither VERIFIED nor INVALID: ${text.slice(0, 80)}`);
}
