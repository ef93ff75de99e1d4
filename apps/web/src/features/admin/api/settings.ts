import { useQuery } from '@tanstack/react-query';
import type { AdminSettingsPatchRequest, AdminSettingsResponse } from '@cellport/shared/schemas/admin/settings';
import { ADMIN_KEY, adminGet, adminPatch } from './admin-client';

export const useAdminSettings = () =>
  useQuery({ queryKey: [ADMIN_KEY, 'settings'], queryFn: () => adminGet<AdminSettingsResponse>('/settings') });
export const updateSettings = (body: AdminSettingsPatchRequest) => adminPatch<AdminSettingsResponse>('/settings', body);
