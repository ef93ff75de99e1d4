import type { StateCreator } from 'zustand';
import type { AppState } from './index';

/**
 * Spec §3 "Settings" (GET /api/v1/settings, loaded at start). Only what the shell reads so far; the payment work
 * adds PAYPAL_MODE and PAYPAL_RECEIVER_EMAIL. `documentationUrl` set → the sidebar's Documentation link is external.
 */
export interface Settings {
  documentationUrl?: string | null;
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
