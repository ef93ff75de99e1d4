import type { StateCreator } from 'zustand';
import type { AppState } from './index';

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

export interface SettingsSlice {
  settings: Settings;
  setSettings: (settings: Settings) => void;
}

export const createSettingsSlice: StateCreator<AppState, [], [], SettingsSlice> = (set) => ({
  settings: {},
  setSettings: (settings) => set({ settings }),
});
