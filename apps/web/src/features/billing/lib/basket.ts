import type { BasketEntry, Coupon, Port } from '@cellport/shared/schemas/catalog';
import { CATALOG_LIMITS, PERIOD_DAYS } from '@cellport/shared/schemas/catalog-constants';
import { couponDiscount, renewalPrice } from '@cellport/shared/schemas/charges';

/** Periods offered per line on the page (the server accepts up to 24). */
export const PERIOD_CHOICES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;

/** How one port is renewed: a number of tariff periods, or a custom number of days (pro rata). */
export interface BasketLine {
  mode: 'periods' | 'days';
  periods: number;
  days: number;
}
export type Basket = Record<string, BasketLine>;

export const defaultLine: BasketLine = { mode: 'periods', periods: 1, days: 7 };

export function entryOf(line: BasketLine): BasketEntry {
  return line.mode === 'periods' ? { periods: line.periods } : { days: line.days };
}

/**
 * Whether a line can be renewed as it is: custom days from 1 to 365, as typed (0 days is said to be wrong, never
 * taken as 1 day; issue 27, item 2).
 */
export function lineValid(line: BasketLine): boolean {
  return line.mode === 'periods' || (Number.isInteger(line.days) && line.days >= CATALOG_LIMITS.renewDaysMin && line.days <= CATALOG_LIMITS.renewDaysMax);
}

/** The price of one line, exactly as the server charges it (shared renewalPrice); null for a line that is not valid. */
export function linePrice(port: Pick<Port, 'price' | 'period'>, line: BasketLine): bigint | null {
  return lineValid(line) ? renewalPrice(BigInt(port.price), PERIOD_DAYS[port.period], entryOf(line)) : null;
}

export interface BasketTotals { subtotal: bigint; discount: bigint; total: bigint }

/** Sum of the chosen lines, the coupon's discount on it, and what is charged. Ports not in the list are ignored. */
export function basketTotals(ports: readonly Port[], basket: Basket, coupon: Coupon | null): BasketTotals {
  let subtotal = 0n;
  for (const port of ports) {
    const line = basket[port._id];
    if (line) subtotal += linePrice(port, line) ?? 0n;
  }
  const discount = coupon ? couponDiscount(subtotal, coupon) : 0n;
  return { subtotal, discount, total: subtotal - discount };
}

/** The basket a link asks for (`?ports=id,id`): each port for one period. */
export function basketFromSearch(search: string): Basket {
  const ids = (new URLSearchParams(search).get('ports') ?? '').split(',').map((id) => id.trim()).filter(Boolean);
  return Object.fromEntries(ids.slice(0, 50).map((id) => [id, defaultLine]));
}

/** The renew request's basket: port id → {periods} or {days}. */
export function basketRequest(basket: Basket): Record<string, BasketEntry> {
  return Object.fromEntries(Object.entries(basket).map(([id, line]) => [id, entryOf(line)]));
}
