/**
 * GET a JSON document from an outside system (block explorers, price tickers). Every failure — network, timeout,
 * non-2xx status, a body that is not JSON — becomes an UpstreamError, so adapters have one thing to catch and log.
 * Shapes are checked by the caller; this only guarantees "parsed JSON or UpstreamError".
 */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export interface FetchJsonOptions {
  headers?: Record<string, string>;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
// A block explorer answer for one address is small; anything far larger is not what we asked for.
const MAX_BODY_CHARS = 5_000_000;

export async function fetchJson(url: string, options: FetchJsonOptions = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', ...options.headers },
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  } catch (err) {
    throw new UpstreamError(`request failed: ${(err as Error).message}`, url);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (err) {
    throw new UpstreamError(`reading the body failed: ${(err as Error).message}`, url, response.status);
  }
  if (!response.ok) throw new UpstreamError(`status ${response.status}`, url, response.status);
  if (text.length > MAX_BODY_CHARS) throw new UpstreamError('body too large', url, response.status);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UpstreamError('body is not JSON', url, response.status);
  }
}

/** Text body for endpoints that answer a bare value (Esplora's /blocks/tip/height answers `840000`). */
export async function fetchText(url: string, options: FetchJsonOptions = {}): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { headers: options.headers, signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS) });
  } catch (err) {
    throw new UpstreamError(`request failed: ${(err as Error).message}`, url);
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) throw new UpstreamError(`status ${response.status}`, url, response.status);
  return text;
}

/** Joins a configured base URL (with or without a trailing slash) and a path. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** The part of the app logger (pino) the adapters use to report what an upstream did wrong. */
export interface UpstreamLog {
  warn(details: object, message: string): void;
}
