import { CALLER_IP_PATH } from '@cellport/shared/schemas/caller-ip-path';

/** What an export line needs from a port. */
export interface ExportablePort {
  host: string;
  http_port: number;
  socks_port: number;
  login: string;
  password: string;
}

/**
 * The line formats antidetect browsers and proxy tools import (issue 27, item 10). The `:`-separated and plain
 * `user:pass@` ones carry credentials as they are; the URL ones percent-encode them.
 */
export const EXPORT_FORMATS = ['http-colon', 'socks-colon', 'http-at', 'http-url', 'socks-url', 'curl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** One port as a line of `format`; `origin` is the dashboard's, for the curl lines' target. */
function exportLine(p: ExportablePort, format: ExportFormat, origin: string): string {
  const host = urlHost(p.host);
  const encoded = `${encodeUserInfo(p.login)}:${encodeUserInfo(p.password)}`;
  switch (format) {
    case 'http-colon': return `${p.host}:${p.http_port}:${p.login}:${p.password}`;
    case 'socks-colon': return `${p.host}:${p.socks_port}:${p.login}:${p.password}`;
    case 'http-at': return `${p.login}:${p.password}@${host}:${p.http_port}`;
    case 'http-url': return `http://${encoded}@${host}:${p.http_port}`;
    case 'socks-url': return `socks5://${encoded}@${host}:${p.socks_port}`;
    case 'curl': return curlCommands(p, origin).http;
  }
}

/** Every port as a line of `format`. */
export function exportLines(ports: readonly ExportablePort[], format: ExportFormat, origin: string): string {
  return ports.map((p) => exportLine(p, format, origin)).join('\n');
}

/**
 * Whether a format that carries credentials as they are would be ambiguous for some port: a `:` or `@` in a login
 * or password splits the line in the wrong place. The URL formats (percent-encoded) are never ambiguous.
 */
export function ambiguousIn(ports: readonly ExportablePort[], format: ExportFormat): boolean {
  if (format !== 'http-colon' && format !== 'socks-colon' && format !== 'http-at') return false;
  return ports.some((p) => /[:@]/.test(p.login) || /[:@]/.test(p.password));
}

/**
 * Percent-encodes a login or password for the user-info of a proxy URL. Beyond encodeURIComponent, also
 * ! ' ( ) *: the line is pasted into a shell, where those would end a quote, start a subshell or a glob.
 */
function encodeUserInfo(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A host for a URL: an IPv6 address goes in brackets. */
function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The two ways to try a port: over its HTTP port and over its SOCKS5 port (socks5h: the proxy resolves names). */
export interface CurlCommands { http: string; socks: string }

/**
 * curl commands that print the IP address the port sends from. The target is this dashboard's own
 * GET /api/v1/ip (`origin` is window.location.origin), so trying a proxy depends on no third party. Credentials
 * are percent-encoded, so a password with ':', '@' or '(' still forms a valid proxy URL and a valid shell word.
 */
export function curlCommands(port: ExportablePort, origin: string): CurlCommands {
  const auth = `${encodeUserInfo(port.login)}:${encodeUserInfo(port.password)}`;
  const host = urlHost(port.host);
  const target = `${origin.replace(/\/+$/, '')}${CALLER_IP_PATH}`;
  return {
    http: `curl -x http://${auth}@${host}:${port.http_port} ${target}`,
    socks: `curl -x socks5h://${auth}@${host}:${port.socks_port} ${target}`,
  };
}

/** Offers text as a .txt download without a server round trip. */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text.endsWith('\n') ? text : `${text}\n`], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled; revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
