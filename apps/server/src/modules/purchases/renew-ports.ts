import type { Language } from '@cellport/shared';
import { couponDiscount, renewalPrice, type Port, type PurchaseResponse, type RenewRequest } from '@cellport/shared/schemas/catalog';
import { microToDollars } from '@cellport/shared/schemas/payments';
import type { Tx } from '../../db/database.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { localized } from '../catalog/index.js';
import { invoiceTexts, issueInvoice, renewalDescription, renewalLineText, type InvoiceLineInput } from '../invoices/index.js';
import { portName, portNamesText, portNameText, renderText } from '../notifications/index.js';
import { publishWebhookEvent } from '../webhooks/index.js';
import { couponToShape, toApiPayment } from './payment-view.js';
import { schedulePortLifecycle } from './port-lifecycle.js';
import type { PurchaseDeps } from './purchase-deps.js';

const DAY_MS = 86_400_000;

/**
 * Renews the customer's ports inside the caller's transaction. Also used by the auto-renew job (with its own payment
 * id, so the job's retry books nothing twice) and by card, crypto and PayPal orders (`provider`).
 */
export async function renewPorts(
  deps: PurchaseDeps, tx: Tx, userId: string, req: RenewRequest, lng: Language, paymentId: string, kind = 'renewal', provider = 'balance',
): Promise<PurchaseResponse> {
  const { repo } = deps;
  const ids = Object.keys(req.basket);
  const couponName = req.coupon?.trim() || null;
  // Ports first (to know tariffs for the coupon scope) — lock order stays coupon → ports → balance because
  // reading ports here takes no lock; they are locked right after the coupon.
  const preview = await repo.renewablePorts(tx, userId, ids);
  if (preview.length !== ids.length) throw notFound();
  const tariffIds = [...new Set(preview.map((p) => p.tariff_id))];
  const tariffs = await repo.tariffs(tx, tariffIds);
  const modemCountries = await repo.modemCountries(tx, preview.map((p) => p.modem_id));
  const coupon = couponName
    ? await deps.coupons.lockForRedemption(tx, userId, couponName, {
      tariffIds, countryIds: [...new Set(modemCountries.map((m) => m.country_id))],
    })
    : null;
  const ports = await repo.lockPorts(tx, userId, ids);
  if (ports.length !== ids.length) throw notFound();
  if (modemCountries.some((m) => m.retired)) throw new AppError('PORT_NOT_RENEWABLE');

  let total = 0n;
  const now = Date.now();
  const renewals: Array<{ id: string; expiresAt: Date }> = [];
  const lines: InvoiceLineInput[] = [];
  for (const port of ports) {
    const tariff = tariffs.find((t) => t.id === port.tariff_id)!;
    const entry = req.basket[port.id]!;
    const price = renewalPrice(tariff.price, tariff.period_days, entry);
    total += price;
    const days = entry.periods !== undefined ? entry.periods * tariff.period_days : entry.days!;
    lines.push({
      description: invoiceTexts(lng).renewalLine(portName(port, lng), localized(tariff.names, lng), days),
      text: renewalLineText(portNameText(port), tariff.names, days), quantity: 1, unitAmount: price, amount: price,
    });
    const from = Math.max(now, port.expires_at.getTime());
    renewals.push({ id: port.id, expiresAt: new Date(from + days * DAY_MS) });
  }
  const discount = coupon ? couponDiscount(total, couponToShape(coupon)) : 0n;
  const amount = total - discount;
  await deps.ledger.debit(tx, { userId, coin: 'usdt', amount, kind, reference: `payment:${paymentId}`, paymentId });

  // Default port names in every language: the description and the notification are read later, in the reader's.
  const names = portNamesText(ports);
  const descriptionText = renewalDescription(names);
  await repo.recordPayment(tx, {
    id: paymentId, user_id: userId, provider, kind: 'renewal', status: 'completed', amount, discount,
    coupon_id: coupon?.id ?? null, coupon: coupon?.name ?? null, description: renderText(lng, descriptionText.key, descriptionText.params),
    description_text: JSON.stringify(descriptionText), modem_count: ports.length,
    tariff_id: tariffIds.length === 1 ? tariffIds[0]! : null,
  });
  await issueInvoice(tx, paymentId, lines, { amount: discount, coupon: coupon?.name ?? null, lng });
  for (const r of renewals) await repo.extendPort(tx, r.id, r.expiresAt);
  await repo.linkPorts(tx, paymentId, renewals.map((r) => r.id));
  await schedulePortLifecycle(deps.jobs, tx, renewals, deps.graceDays);
  if (coupon) await deps.coupons.redeem(tx, coupon.id, userId, paymentId);
  await publishWebhookEvent(tx, userId, 'port.renewed', {
    paymentId, amount: microToDollars(amount), currency: 'USD', auto: kind !== 'renewal',
    ports: renewals.map((r) => ({ id: r.id, name: ports.find((p) => p.id === r.id)!.name, expiresAt: r.expiresAt.toISOString() })),
  });
  if (kind === 'renewal') {
    await deps.notifications.notify(userId, 'payment', 'renewal_completed', { amount: microToDollars(amount), names }, tx);
  }
  // The answer: the payment as the history shows it, and the renewed ports.
  const [row] = await repo.payments(userId, paymentId, tx);
  const modems: Port[] = await deps.ports.list(userId, lng, { ids: ports.map((p) => p.id), tx });
  return { error: null, data: { payment: toApiPayment(row!.payment, row!.ports, lng), modems } };
}
