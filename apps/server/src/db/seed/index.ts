import type { AppContext } from '../../context.js';
import { seedCatalog } from './catalog.js';
import { seedDemoUser } from './demo-user.js';
import { seedTraffic } from './traffic.js';

type SeedStep = (ctx: AppContext) => Promise<void>;

// Each step is idempotent: running the seed again changes nothing. Areas append their step here.
const steps: SeedStep[] = [seedDemoUser, seedCatalog, seedTraffic];

export async function runSeed(ctx: AppContext): Promise<void> {
  for (const step of steps) await step(ctx);
}
