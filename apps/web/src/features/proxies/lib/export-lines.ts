import { CALLER_IP_PATH } from '@cellport/shared/schemas/caller-ip';

/** What an export line needs from a port. */
export interface ExportablePort {
  host: string;
  http_port: number;
  socks_port: number;
  login: string;
  password: string;
}

/** `host:port:user:pass`, one line per port, as most proxy tools import them. */
export function credentialLines(ports: readonly ExportablePort[]): string {
  return ports.map((p) => `${p.host}:${p.http_port}:${p.login}:${p.password}`).join('\n');
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

/** One curl command per port (over HTTP) that prints the proxy's IP. */
export function curlLines(ports: readonly ExportablePort[], origin: string): string {
  return ports.map((p) => curlCommands(p, origin).http).join('\n');
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
