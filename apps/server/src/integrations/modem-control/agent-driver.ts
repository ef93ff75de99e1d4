import { randomUUID } from 'node:crypto';
import { HOST_PROTOCOL, type RotateReply } from '@cellport/shared/schemas/host-protocol';
import type { Bus } from '../../lib/bus.js';
import { ModemOfflineError, RotationCollisionError, type ModemDriver, type ModemRef } from './modem-control.js';
import { TOPICS } from '../../lib/bus-topics.js';

/**
 * Bus topics of a rotation through the host agent (docs/decisions/016-host-protocol.md). The instance asked to
 * rotate publishes HOST_ROTATE; the instance holding the host's socket (modules/hosts) answers HOST_ROTATE_CLAIMED
 * at once, relays the agent's 'rotation-status' messages as HOST_ROTATE_STATUS and its acknowledgement as
 * HOST_ROTATE_REPLY. On PostgreSQL the bus crosses instances through NOTIFY; on PGlite there is one instance.
 */
export const HOST_ROTATE = TOPICS.hostRotate;
export const HOST_ROTATE_CLAIMED = TOPICS.hostRotateClaimed;
export const HOST_ROTATE_STATUS = TOPICS.hostRotateStatus;
export const HOST_ROTATE_REPLY = TOPICS.hostRotateReply;

export interface HostRotateRequest { commandId: string; hostId: string; imei: string }
export interface HostRotateClaimed { commandId: string }
export interface HostRotateStatus { commandId: string; status: 'rotating' | 'applying' }
export interface HostRotateReply { commandId: string; reply: RotateReply }

/** Which host's agent serves a modem, and the modem's IMEI there (the hosts domain's HostsRepository). */
export interface ModemHosts {
  modemHost(modemId: string): Promise<{ host_id: string; imei: string } | undefined>;
}

export interface AgentDriverOptions {
  /** How long to wait for an instance to say it holds the host's connection (then the modem is offline). */
  claimTimeoutMs?: number;
  /** How long the agent has to answer; past it the rotation failed. */
  replyTimeoutMs?: number;
}

/**
 * Rotates a modem through the agent that owns it: never retries a same-IP answer itself (RotationService does).
 * Fails with ModemOfflineError when no instance holds the host's connection within claimTimeoutMs, and with
 * RotationCollisionError when the agent answers `ip_collision` (it already reconnected the modem several times).
 */
export class AgentModemDriver implements ModemDriver {
  private readonly claimTimeoutMs: number;
  private readonly replyTimeoutMs: number;

  constructor(private readonly modems: ModemHosts, private readonly bus: Bus, options: AgentDriverOptions = {}) {
    this.claimTimeoutMs = options.claimTimeoutMs ?? 2000;
    // The holder's own ack timeout is rotateTimeoutSeconds; a little more here lets its failure reply arrive first.
    this.replyTimeoutMs = options.replyTimeoutMs ?? HOST_PROTOCOL.rotateTimeoutSeconds * 1000 + 5000;
  }

  async rotate(modem: ModemRef, onStatus: (status: 'rotating' | 'applying') => void): Promise<{ extIp: string }> {
    const row = await this.modems.modemHost(modem.id);
    if (!row) throw new ModemOfflineError('no such modem');
    const commandId = randomUUID();
    const off: Array<() => void> = [];
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<{ extIp: string }>((resolve, reject) => {
        const arm = (ms: number, error: () => Error) => {
          clearTimeout(timer);
          timer = setTimeout(() => reject(error()), ms);
        };
        off.push(this.bus.on(HOST_ROTATE_CLAIMED, (m: HostRotateClaimed) => {
          if (m.commandId === commandId) arm(this.replyTimeoutMs, () => new Error('the agent did not answer the rotation in time'));
        }));
        off.push(this.bus.on(HOST_ROTATE_STATUS, (m: HostRotateStatus) => {
          if (m.commandId === commandId && (m.status === 'rotating' || m.status === 'applying')) onStatus(m.status);
        }));
        off.push(this.bus.on(HOST_ROTATE_REPLY, (m: HostRotateReply) => {
          if (m.commandId !== commandId) return;
          if (m.reply.ok) resolve({ extIp: m.reply.extIp });
          else if (m.reply.code === 'ip_collision') reject(new RotationCollisionError(m.reply.error));
          else reject(new Error(`the agent could not rotate: ${m.reply.error}`));
        }));
        arm(this.claimTimeoutMs, () => new ModemOfflineError('no agent is connected for the modem\'s host'));
        const request: HostRotateRequest = { commandId, hostId: row.host_id, imei: row.imei };
        this.bus.publish(HOST_ROTATE, request).catch(reject);
      });
    } finally {
      clearTimeout(timer);
      for (const f of off) f();
    }
  }
}
