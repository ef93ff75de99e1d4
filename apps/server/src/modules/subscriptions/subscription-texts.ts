import { microToDollars } from '@cellport/shared/schemas/payments';
import { portNamesText, type NamedPort } from '../notifications/index.js';

/** The notifications' parameters naming a subscription: its ports, its amount per period, its card. */
export function subscriptionParams(row: { ports: NamedPort[]; amount: bigint | null; card_brand: string | null; card_last4: string | null }) {
  return {
    names: portNamesText(row.ports),
    amount: microToDollars(row.amount ?? 0n),
    // Stripe writes networks in lower case (visa, mastercard, amex); people write them with a capital.
    card: row.card_brand && row.card_last4 ? `${row.card_brand.charAt(0).toUpperCase()}${row.card_brand.slice(1)} •••• ${row.card_last4}` : '',
  };
}

export const isoDay = (d: Date) => d.toISOString().slice(0, 10);
