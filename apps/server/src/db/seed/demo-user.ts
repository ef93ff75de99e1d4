import { hash } from '@node-rs/argon2';
import type { AppContext } from '../../context.js';

/**
 * A verified demo customer (DEMO_EMAIL / DEMO_PASSWORD), so a fresh install can be tried at once.
 * Idempotent: an existing account is left exactly as it is (its password is not reset).
 */
export async function seedDemoUser({ config, db, log }: AppContext): Promise<void> {
  const email = config.DEMO_EMAIL.toLowerCase();
  const existing = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (!existing) {
    await db.insertInto('users').values({
      email,
      name: 'Demo Customer',
      password_hash: await hash(config.DEMO_PASSWORD),
      purpose: 'Trying out Cellport with the demo account',
      language: 'en',
      marketing_consent: false,
      is_verified: true,
    }).onConflict((oc) => oc.column('email').doNothing()).execute();
  }
  log.info(`Demo customer: ${email} / ${config.DEMO_PASSWORD}${existing ? ' (already there; kept as it was)' : ' (created)'}`);
}
