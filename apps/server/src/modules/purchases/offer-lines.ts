import type { Trial } from '@cellport/shared/schemas/tariff-offers';
import type { InvoiceLineInput } from '../invoices/index.js';
import { renderText, type ServerText } from '../notifications/index.js';

// The invoice lines of a tariff's trial and volume discount (issue 27, item 8), stored as texts so each reader sees
// them in their language (invoice.json `lines.trial`, `lines.volume`), like the purchase line beside them.

/** 'Trial of a mobile proxy port, Germany (Telekom): Standard, 1 h' at the trial's price; `purchase` is the purchase line's text. */
export function trialLine(lng: string, trial: Trial, purchase: ServerText, amount: bigint): InvoiceLineInput {
  const text: ServerText = { key: 'invoice_line_trial', params: { ...purchase.params, hours: trial.hours } };
  return { description: renderText(lng, text.key, text.params), text, quantity: 1, unitAmount: amount, amount };
}

/** 'Volume discount 10%' as a negative line, so the lines still add up to what was paid. */
export function volumeLine(lng: string, percent: number, discount: bigint): InvoiceLineInput {
  const text: ServerText = { key: 'invoice_line_volume', params: { percent } };
  return { description: renderText(lng, text.key, text.params), text, quantity: 1, unitAmount: -discount, amount: -discount };
}
