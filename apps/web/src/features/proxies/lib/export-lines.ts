/** What an export line needs from a port. */
export interface ExportablePort {
  host: string;
  http_port: number;
  login: string;
  password: string;
}

/** `host:port:user:pass`, one line per port, as most proxy tools import them. */
export function credentialLines(ports: readonly ExportablePort[]): string {
  return ports.map((p) => `${p.host}:${p.http_port}:${p.login}:${p.password}`).join('\n');
}

/**
 * A curl command per port that prints the proxy's public IP. Credentials are percent-encoded so a password
 * with ':' or '@' still forms a valid proxy URL.
 */
export function curlLines(ports: readonly ExportablePort[]): string {
  return ports
    .map((p) => `curl -x http://${encodeURIComponent(p.login)}:${encodeURIComponent(p.password)}@${p.host}:${p.http_port} https://api.ipify.org`)
    .join('\n');
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
