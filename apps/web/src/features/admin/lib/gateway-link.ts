// How the hosts list shows a pinned host's link to its gateway: the agent's last report, in the reader's language.
import type { HostGatewayLink } from '@cellport/shared/schemas/admin/gateways';

export type LinkTone = 'ok' | 'warn' | 'bad' | 'neutral';

/**
 * The badge of a link report: up is fine, connecting is on its way (the agent retries within seconds), down and
 * refused need someone. While the host is offline nobody reports the link, so its last state is shown neutral.
 */
export function linkTone(link: HostGatewayLink, hostOnline: boolean): LinkTone {
  if (!hostOnline) return 'neutral';
  return link.state === 'up' ? 'ok' : link.state === 'connecting' ? 'warn' : 'bad';
}

/** The locale key of a link state (admin namespace). */
export const linkStateKey = (link: HostGatewayLink): string => `gateways.linkState.${link.state}`;
