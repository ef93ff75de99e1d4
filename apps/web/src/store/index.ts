import { create } from 'zustand';
import { createAccountSlice, type AccountSlice } from './account-slice';
import { createNotificationsSlice, type NotificationsSlice } from './notifications-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';
import { createUserSlice, type UserSlice } from './user-slice';

/**
 * The client store of spec §3 "Client state", one slice per entity. Server data is fetched with TanStack Query;
 * the store holds what several parts of the shell share. A new slice: write `<entity>-slice.ts`, add its type to
 * AppState and its creator below (one line each).
 */
export type AppState = UserSlice & AccountSlice & SettingsSlice & NotificationsSlice;

export const useAppStore = create<AppState>()((...a) => ({
  ...createUserSlice(...a),
  ...createAccountSlice(...a),
  ...createSettingsSlice(...a),
  ...createNotificationsSlice(...a),
}));
