/**
 * The ports customer webhooks may use (WEBHOOKS_ALLOWED_PORTS, issue 26 item 12): the web's usual ones by default, so a
 * webhook is a POST to a web server and not to the mail, database or cache port of some public address. Loopback
 * targets, allowed only by the unsafe WEBHOOKS_ALLOW_LOOPBACK (tests, the demo), may use any port. In lib, not in the
 * webhooks domain: the config schema checks the setting with it.
 */
export type PortList = ReadonlyArray<readonly [from: number, to: number]>;

export const DEFAULT_WEBHOOK_PORTS = '80,443,8080,8443';

/** "80,443,8000-8999" as ranges; throws with a message for a setting that is not one. */
export function parsePortList(text: string): PortList {
  const list = text.split(',').map((item) => item.trim()).filter(Boolean).map((item) => {
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(item);
    const from = Number(m?.[1]);
    const to = Number(m?.[2] ?? m?.[1]);
    if (!m || from < 1 || to > 65535 || from > to) throw new Error(`"${item}" is not a port (1-65535) or a range of them (8000-8999)`);
    return [from, to] as const;
  });
  if (!list.length) throw new Error('name at least one port');
  return list;
}

export const portAllowed = (list: PortList, port: number) => list.some(([from, to]) => port >= from && port <= to);

/** The list as people read it: "80, 443, 8000-8999". */
export const describePorts = (list: PortList) => list.map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`)).join(', ');

/** The port a URL connects to: its own, or its scheme's. */
export const urlPort = (url: URL) => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);
