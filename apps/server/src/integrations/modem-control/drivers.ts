import type { AppContext } from '../../context.js';
import { AgentModemDriver } from './agent-driver.js';
import type { ModemDriver } from './modem-control.js';
import { SimulatedModemDriver } from './simulated-driver.js';

/** The one place that picks the modem driver from MODEM_CONTROL: the host agent (default) or the simulation. */
export function modemDriverFor(ctx: Pick<AppContext, 'db' | 'bus' | 'config'>): ModemDriver {
  if (ctx.config.MODEM_CONTROL === 'simulated') {
    return new SimulatedModemDriver({ delayMs: ctx.config.MODEM_SIM_DELAY_MS, sameIpRate: ctx.config.MODEM_SIM_SAME_IP_RATE });
  }
  return new AgentModemDriver(ctx.db, ctx.bus);
}
