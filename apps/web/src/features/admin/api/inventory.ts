import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import type { HostKeyResponse, HostPatchRequest, HostRequest, HostResponse } from '@cellport/shared/schemas/admin/hosts';
import type {
  ModemImportResponse, ModemPatchRequest, ModemRequest, ModemResponse, ModemsQuery, ModemsResponse, StockResponse,
} from '@cellport/shared/schemas/admin/modems';
import type { AdoptModemRequest, InventoryHostsResponse } from '@cellport/shared/schemas/admin/host-inventory';
import { ADMIN_KEY, adminGet, adminPatch, adminPost, toQuery } from './admin-client';

export const useHosts = () => useQuery({ queryKey: [ADMIN_KEY, 'hosts'], queryFn: () => adminGet<InventoryHostsResponse>('/hosts') });
/** The hosts page: refetched every heartbeat interval, so last contact, modem states and reports stay current. */
export const useHostsLive = () => useQuery({
  queryKey: [ADMIN_KEY, 'hosts'],
  queryFn: () => adminGet<InventoryHostsResponse>('/hosts'),
  refetchInterval: HOST_PROTOCOL.heartbeatSeconds * 1000,
});
/** POST /admin/hosts/:id/key — the new key, shown once; the host's previous key stops working. */
export const issueHostKey = (id: string) => adminPost<HostKeyResponse>(`/hosts/${id}/key`);
export const createHost = (body: HostRequest) => adminPost<HostResponse>('/hosts', body);
/** PATCH /admin/hosts/:id — also pins the host to a gateway (gatewayId; null: direct). */
export const updateHost = ({ id, ...body }: HostPatchRequest & { id: string }) => adminPatch<HostResponse>(`/hosts/${id}`, body);
/** POST /admin/hosts/:id/modems — a modem the host reports goes into the inventory (the server picks its ports). */
export const adoptModem = ({ hostId, ...body }: AdoptModemRequest & { hostId: string }) => adminPost<ModemResponse>(`/hosts/${hostId}/modems`, body);

/** GET /admin/modems with the list's filters. */
export const useModems = (query: ModemsQuery) =>
  useQuery({
    queryKey: [ADMIN_KEY, 'modems', query],
    queryFn: () => adminGet<ModemsResponse>(`/modems${toQuery(query)}`),
    placeholderData: keepPreviousData,
  });
export const createModem = (body: ModemRequest) => adminPost<ModemResponse>('/modems', body);
export const updateModem = ({ id, ...body }: ModemPatchRequest & { id: string }) => adminPatch<ModemResponse>(`/modems/${id}`, body);
/** POST /admin/modems/:id/return-to-service: a modem in maintenance (its ports were moved off it) is for sale again. */
export const returnModemToService = (id: string) => adminPost<{ ok: true }>(`/modems/${id}/return-to-service`);

/** POST /admin/modems/import with the CSV text; valid rows go in, the report covers every row. */
export const importModems = (csv: string) => adminPost<ModemImportResponse>('/modems/import', { csv });

export const useStock = () => useQuery({ queryKey: [ADMIN_KEY, 'stock'], queryFn: () => adminGet<StockResponse>('/stock') });
