import type { PortActionResponse } from '@cellport/shared/schemas/admin/ports';
import { adminPost } from './admin-client';

export type PortAction = 'suspend' | 'resume';

/** POST /admin/ports/:id/{suspend|resume} with an optional note for the audit log. */
export const portAction = ({ id, action, reason }: { id: string; action: PortAction; reason?: string }) =>
  adminPost<PortActionResponse>(`/ports/${id}/${action}`, reason ? { reason } : {});
