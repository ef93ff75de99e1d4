import type { ApplyStatus } from '@cellport/shared/schemas/catalog';

/** What a driver needs to know about a modem. */
export interface ModemRef { id: string; imei: string; extIp: string }

/**
 * Talks to a physical modem (or pretends to). `rotate` asks the modem for a new mobile IP, reporting the
 * intermediate states through `onStatus`, and resolves with the IP the modem now has — which may be the same one;
 * retrying is the caller's decision. The proxy host agent will add drivers for real modems.
 */
export interface ModemDriver {
  rotate(modem: ModemRef, onStatus: (status: ApplyStatus) => void): Promise<{ extIp: string }>;
}

/**
 * The modem was reconnected and came back with the same public IP every time (the agent's `ip_collision`): the
 * rotation failed, and trying again at once would not help.
 */
export class RotationCollisionError extends Error {
  constructor(message = 'the modem came back with the same IP') {
    super(message);
    this.name = 'RotationCollisionError';
  }
}

/**
 * The modem cannot be reached at all (no agent holds its host): nothing was tried, so the caller gives back
 * whatever it reserved for the rotation.
 */
export class ModemOfflineError extends Error {
  constructor(message = 'the modem is offline') {
    super(message);
    this.name = 'ModemOfflineError';
  }
}
