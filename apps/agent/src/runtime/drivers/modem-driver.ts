import type { ModemHealth } from '@cellport/shared/schemas/host-protocol';

/** What the agent knows of one modem it drives. */
export interface DrivenModem { imei: string; extIp: string }

/**
 * Controls one kind of modem on this host. `egress` is the source address the modem's outgoing connections bind to;
 * `rotate` asks the modem for a new mobile IP, reporting progress, and resolves with the IP it now has. A host with a
 * modems file (AGENT_MODEMS) drives real modems (Huawei HiLink, ModemManager) through src/modems/host-modems.ts;
 * the simulated one serves the demo and the tests.
 */
export interface ModemDriver {
  /**
   * The IP the agent starts a modem with, given the one the server last knew. Throws when this host cannot drive the
   * modem (not in its modems file, not answering): the modem stays offline with that reason.
   */
  adopt(serverExtIp: string, imei: string): string;
  egress(modem: DrivenModem): string;
  rotate(modem: DrivenModem, onStatus: (status: 'rotating' | 'applying') => void): Promise<{ extIp: string }>;
  /** The modem's health from the driver's checks (src/runtime/health); undefined when it does not check it. */
  health?(imei: string): ModemHealth | undefined;
  /** The public IP the driver last measured, when it may have moved without a rotation (after a recovery). */
  currentIp?(imei: string): string | undefined;
}
