import { useQuery } from '@tanstack/react-query';
import { HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import type {
  GatewayPatchRequest, GatewayRequest, GatewayResponse, GatewaysResponse,
} from '@cellport/shared/schemas/admin/gateways';
import type { OkResponse } from '@cellport/shared/schemas/admin/common';
import { ADMIN_KEY, adminDelete, adminGet, adminPatch, adminPost } from './admin-client';

/**
 * GET /admin/gateways with the trust key; refetched every heartbeat interval, so "linked now" stays current.
 * `enabled: false` (a closed dialog that lists them) asks nothing.
 */
export const useGateways = ({ enabled = true }: { enabled?: boolean } = {}) => useQuery({
  queryKey: [ADMIN_KEY, 'gateways'],
  queryFn: () => adminGet<GatewaysResponse>('/gateways'),
  refetchInterval: HOST_PROTOCOL.heartbeatSeconds * 1000,
  enabled,
});
export const createGateway = (body: GatewayRequest) => adminPost<GatewayResponse>('/gateways', body);
export const updateGateway = ({ id, ...body }: GatewayPatchRequest & { id: string }) => adminPatch<GatewayResponse>(`/gateways/${id}`, body);
/** DELETE /admin/gateways/:id — refused (IN_USE) while a host is pinned to it. */
export const deleteGateway = (id: string) => adminDelete<OkResponse>(`/gateways/${id}`);
