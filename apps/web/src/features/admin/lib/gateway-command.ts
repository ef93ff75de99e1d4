// The command an operator runs on a gateway's machine (`npm run gateway`, apps/agent/src/gateway), as the console
// shows it for each gateway: its id, the server's trust key, and the port its link URL names, which is where the
// gateway must listen for agents (GATEWAY_LINK_PORT; GATEWAY_LINK_HOST and GATEWAY_LISTEN_HOST keep 0.0.0.0).

/** Where the console suggests a gateway keeps its TLS files when its link URL is https. */
export const GATEWAY_TLS_EXAMPLE = { cert: '/etc/cellport-gateway/cert.pem', key: '/etc/cellport-gateway/key.pem' } as const;

/** The port a link URL names, or its scheme's (80 for http, 443 for https). */
export function linkPort(linkUrl: string): number {
  const url = new URL(linkUrl);
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/**
 * One shell line: `GATEWAY_ID=… GATEWAY_TRUST_KEY=… GATEWAY_LINK_PORT=… npm run gateway`. An https link URL means
 * the gateway itself speaks TLS to agents, so the line also names its certificate and key (example paths).
 */
export function gatewayCommand(gateway: { id: string; linkUrl: string }, trustKey: string): string {
  const settings = [`GATEWAY_ID=${gateway.id}`, `GATEWAY_TRUST_KEY=${trustKey}`, `GATEWAY_LINK_PORT=${linkPort(gateway.linkUrl)}`];
  if (new URL(gateway.linkUrl).protocol === 'https:') {
    settings.push(`GATEWAY_TLS_CERT=${GATEWAY_TLS_EXAMPLE.cert}`, `GATEWAY_TLS_KEY=${GATEWAY_TLS_EXAMPLE.key}`);
  }
  return [...settings, 'npm run gateway'].join(' ');
}
