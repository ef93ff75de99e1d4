// The entity shapes the catalog store slices hold: the shared API contract (packages/shared/src/schemas/catalog.ts).
export type {
  AccountResponse as AccountView,
  Country as CountryView,
  Payment as PaymentView,
  Port as ModemView,
  RotationTag as RotationTagView,
  Tariff as TariffView,
} from '@cellport/shared/schemas/catalog';
