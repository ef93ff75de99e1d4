import { useQuery } from '@tanstack/react-query';
import type { OperatorAlertSettings, OperatorAlertSettingsPatch } from '@cellport/shared/schemas/admin/alerts';
import { ADMIN_KEY, adminGet, adminPatch } from './admin-client';

/** GET /admin/alerts: the signed-in operator's own channels for the farm's alerts. */
export const useAlertSettings = () =>
  useQuery({ queryKey: [ADMIN_KEY, 'alerts'], queryFn: () => adminGet<OperatorAlertSettings>('/alerts') });
export const updateAlertSettings = (body: OperatorAlertSettingsPatch) => adminPatch<OperatorAlertSettings>('/alerts', body);
