import type { StateCreator } from 'zustand';
import type { AppState } from './index';

/** GET /api/v1/me as the shell reads it. */
export interface Me {
  id: string;
  name: string;
  email: string;
  company_name: string;
  language: string;
  use2fa: boolean;
  isVerified: boolean;
  role: 'customer' | 'admin';
}

/** Spec §3 "User": name and isAuthenticated, filled by the shell from GET /api/v1/me. */
export interface UserSlice {
  user: { me: Me | null; isAuthenticated: boolean };
  setUser: (me: Me | null) => void;
}

export const createUserSlice: StateCreator<AppState, [], [], UserSlice> = (set) => ({
  user: { me: null, isAuthenticated: false },
  setUser: (me) => set({ user: { me, isAuthenticated: me !== null } }),
});
