import type { StateCreator } from 'zustand';
import type { AppState } from './index';
import type { AccountView } from './store-types';

/** Spec §3 "Account": {btc, usdt} × {balance, address}; balances are strings of integer minor units. */
export type Account = AccountView;

export interface AccountSlice {
  account: Account | null;
  setAccount: (account: Account | null) => void;
}

export const createAccountSlice: StateCreator<AppState, [], [], AccountSlice> = (set) => ({
  account: null,
  setAccount: (account) => set({ account }),
});
