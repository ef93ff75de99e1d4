// The entity shapes these store slices hold. TEMPORARY local mirror of the API contract until
// packages/shared/src/schemas/catalog.ts lands; then these become re-exports of the shared types.
export interface RotationTagView { value: number; label: string }
export interface TariffView {
  _id: string;
  name: { en: string; ru?: string; cn?: string };
  price: string;
  period: 'day' | 'week' | 'month';
  periodDays: number;
  country_id: string;
  carrier_id: string | null;
  region_id: string | null;
  isShared: boolean;
  rotationInterval: number;
  recurring: boolean;
}
export interface ModemView {
  _id: string;
  IMEI: string;
  modem_name: string;
  status: string;
  applyStatus: string;
  ext_ip: string | null;
  online: boolean;
  host: string;
  http_port: number;
  socks_port: number;
  login: string;
  password: string;
  whitelist: string[];
  rotationInterval: number;
  rotationLink: string | null;
  expiresAt: string;
  autoRenew: boolean;
  tariff_id: string;
  tariffName: { en: string; ru?: string; cn?: string };
  period: 'day' | 'week' | 'month';
  price: string;
  country: { _id: string; code: string; name: string };
  carrier: { _id: string; name: string } | null;
  region: { _id: string; name: string } | null;
  isShared: boolean;
  lastRotatedAt: string | null;
}
export interface PaymentView {
  _id: string;
  provider: string;
  kind: string;
  status: string;
  amount: string;
  currency: string;
  coupon: string | null;
  discount: string;
  description: string;
  modemCount: number;
  createdAt: string;
  ports: { _id: string; modem_name: string }[];
}
