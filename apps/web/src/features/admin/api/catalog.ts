import { useQuery } from '@tanstack/react-query';
import type {
  AdminCatalogResponse, CarrierRequest, CountryRequest, RegionPatchRequest, RegionRequest, RotationIntervalPatchRequest,
  RotationIntervalRequest, TariffPatchRequest, TariffRequest,
} from '@cellport/shared/schemas/admin/catalog';
import { ADMIN_KEY, adminDelete, adminGet, adminPatch, adminPost } from './admin-client';

/** GET /admin/catalog: countries, carriers, regions, tariffs and rotation intervals in one answer. */
export const useAdminCatalog = () =>
  useQuery({ queryKey: [ADMIN_KEY, 'catalog'], queryFn: () => adminGet<AdminCatalogResponse>('/catalog') });

export const createCountry = (body: CountryRequest) => adminPost('/countries', body);
export const updateCountry = ({ id, ...body }: Partial<CountryRequest> & { id: string }) => adminPatch(`/countries/${id}`, body);
export const deleteCountry = (id: string) => adminDelete(`/countries/${id}`);

export const createCarrier = (body: CarrierRequest) => adminPost('/carriers', body);
export const updateCarrier = ({ id, name, asn }: { id: string; name: string; asn: string | null }) => adminPatch(`/carriers/${id}`, { name, asn });
export const deleteCarrier = (id: string) => adminDelete(`/carriers/${id}`);

export const createRegion = (body: RegionRequest) => adminPost('/regions', body);
export const updateRegion = ({ id, ...body }: RegionPatchRequest & { id: string }) => adminPatch(`/regions/${id}`, body);
export const deleteRegion = (id: string) => adminDelete(`/regions/${id}`);

export const createTariff = (body: TariffRequest) => adminPost('/tariffs', body);
export const updateTariff = ({ id, ...body }: TariffPatchRequest & { id: string }) => adminPatch(`/tariffs/${id}`, body);
/** Only a tariff nothing was sold, paid or ordered on; the server answers IN_USE otherwise (hide it instead). */
export const deleteTariff = (id: string) => adminDelete(`/tariffs/${id}`);

export const createRotationInterval = (body: RotationIntervalRequest) => adminPost('/rotation-intervals', body);
export const updateRotationInterval = ({ minutes, ...body }: RotationIntervalPatchRequest & { minutes: number }) =>
  adminPatch(`/rotation-intervals/${minutes}`, body);
export const deleteRotationInterval = (minutes: number) => adminDelete(`/rotation-intervals/${minutes}`);
