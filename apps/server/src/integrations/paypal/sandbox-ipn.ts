import { randomBytes } from 'node:crypto';
import { centsToAmount } from './amount.js';
import { checkIpn, type IpnOutcome } from './check-ipn.js';
import type { PayPalSettings } from './paypal-settings.js';

/**
 * Offline completion for sandbox mode ("Simulate payment"): builds the fields PayPal's IPN would carry for a
 * Completed payment of the pending record and runs them through the same checkIpn as a real IPN, so the credit
 * follows one code path. Refused unless the settings allow simulation (sandbox mode, never production).
 */
export function sandboxComplete(settings: PayPalSettings, pending: { custom: string; amountCents: number }): IpnOutcome {
  if (!settings.simulation) throw new Error('PayPal offline completion is only available in sandbox mode outside production');
  const fields: Record<string, string> = {
    txn_type: 'web_accept',
    // Real txn ids are 17 upper-case letters and digits; the prefix keeps sandbox ones recognisable in the ledger.
    txn_id: `SBX${randomBytes(7).toString('hex').toUpperCase()}`,
    payment_status: 'Completed',
    mc_gross: centsToAmount(pending.amountCents),
    mc_currency: 'USD',
    receiver_email: settings.receiverEmail,
    business: settings.receiverEmail,
    custom: pending.custom,
    item_number: '1',
    quantity: '1',
    payer_email: 'sandbox-buyer@personal.example.com',
    test_ipn: '1',
  };
  return checkIpn('VERIFIED', fields, { receiverEmail: settings.receiverEmail, amountCents: pending.amountCents, currency: 'USD' });
}
