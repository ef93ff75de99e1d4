import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../lib/api';

/**
 * Spec §3 "Settings" (GET /api/v1/settings, loaded at start by the shell). `documentationUrl` set → the sidebar's
 * Documentation link is external. The payment fields decide which payment controls exist: `card.provider` picks
 * Stripe Elements or the offline sandbox card form, `simulatePayments` shows the sandbox 'Simulate payment'
 * controls (never true in production). All optional: until the answer arrives nothing payment-related is offered.
 */
export interface Settings {
  documentationUrl?: string | null;
  PAYPAL_MODE?: 'sandbox' | 'live' | 'off';
  PAYPAL_RECEIVER_EMAIL?: string;
  card?: { provider: 'stripe' | 'sandbox' | 'off'; publishableKey: string | null };
  crypto?: { mode: 'live' | 'sandbox' };
  simulatePayments?: boolean;
  [key: string]: unknown;
}

/** GET /settings (spec §7: loaded at start). The query cache is its one home (decision 020). */
export const settingsQuery = queryOptions({
  queryKey: ['settings'],
  queryFn: () => apiGet<Settings>('/settings'),
  staleTime: 10 * 60_000,
});

const none: Settings = {};

/** The settings, `{}` until the first answer. */
export const useSettings = (): Settings => useQuery(settingsQuery).data ?? none;
