import { PERIOD_DAYS, type TariffPeriod } from '@cellport/shared/schemas/catalog';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import type { LocalizedNames } from '../tables/catalog.js';

interface SeedCountry {
  code: string;
  names: LocalizedNames;
  /** asn: the carrier's public autonomous system number, as an operator would enter it in the console. */
  carriers: Array<{ name: string; asn: number; regions: string[] }>;
}

const COUNTRIES: SeedCountry[] = [
  {
    code: 'US', names: { en: 'United States', ru: 'США', cn: '美国' },
    carriers: [
      { name: 'T-Mobile', asn: 21928, regions: ['New York', 'California'] },
      { name: 'AT&T', asn: 20057, regions: ['Texas', 'Florida'] },
      { name: 'Verizon', asn: 6167, regions: ['New York', 'Illinois'] },
    ],
  },
  { code: 'DE', names: { en: 'Germany', ru: 'Германия', cn: '德国' }, carriers: [{ name: 'Telekom', asn: 3320, regions: ['Berlin'] }, { name: 'Vodafone', asn: 3209, regions: ['Munich'] }] },
  { code: 'GB', names: { en: 'United Kingdom', ru: 'Великобритания', cn: '英国' }, carriers: [{ name: 'EE', asn: 12576, regions: ['London'] }, { name: 'Vodafone UK', asn: 25135, regions: ['Manchester'] }] },
  { code: 'UA', names: { en: 'Ukraine', ru: 'Украина', cn: '乌克兰' }, carriers: [{ name: 'Kyivstar', asn: 15895, regions: ['Kyiv'] }, { name: 'lifecell', asn: 34058, regions: ['Lviv'] }] },
];

/** The demo regions' Russian and Chinese names (issue 27, item 12); a region without one reads English. */
const REGION_NAMES: Record<string, { ru: string; cn: string }> = {
  'New York': { ru: 'Нью-Йорк', cn: '纽约' }, California: { ru: 'Калифорния', cn: '加利福尼亚' },
  Texas: { ru: 'Техас', cn: '得克萨斯' }, Florida: { ru: 'Флорида', cn: '佛罗里达' }, Illinois: { ru: 'Иллинойс', cn: '伊利诺伊' },
  Berlin: { ru: 'Берлин', cn: '柏林' }, Munich: { ru: 'Мюнхен', cn: '慕尼黑' }, London: { ru: 'Лондон', cn: '伦敦' },
  Manchester: { ru: 'Манчестер', cn: '曼彻斯特' }, Kyiv: { ru: 'Киев', cn: '基辅' }, Lviv: { ru: 'Львов', cn: '利沃夫' },
};

// Dollars per period; prices are stored in micro-units.
const PRICES: Record<'dedicated' | 'shared', Record<TariffPeriod, number>> = {
  dedicated: { day: 4, week: 20, month: 65 },
  shared: { day: 2, week: 9, month: 29 },
};
const PERIOD_NAMES: Record<TariffPeriod, LocalizedNames> = {
  day: { en: 'Day', ru: 'День', cn: '天' },
  week: { en: 'Week', ru: 'Неделя', cn: '周' },
  month: { en: 'Month', ru: 'Месяц', cn: '月' },
};
const KIND_NAMES: Record<'dedicated' | 'shared', LocalizedNames> = {
  dedicated: { en: 'Dedicated', ru: 'Выделенный', cn: '独享' },
  shared: { en: 'Shared', ru: 'Общий', cn: '共享' },
};
const MODEMS_PER_CARRIER = 4; // 9 carriers → 36 dedicated + 9 shared modems
const SHARED_CAPACITY = 5;
const SHARED_INTERVAL = 10;
/** The seeded modems listen on SEED_PORT_BASE + 2i (HTTP) and + 2i + 1 (SOCKS5), i counted across all hosts. */
const SEED_PORT_BASE = 21000;
const SEED_PORT_BASE_ALT = 41000;
/** The addresses the previous seed gave its modems (RFC 5737 documentation ranges). */
const OLD_DEMO_IP = /^(192\.0\.2|198\.51\.100|203\.0\.113)\./;

/** How many modems the seed creates. */
const SEEDED_MODEMS = COUNTRIES.reduce((n, c) => n + c.carriers.length * (MODEMS_PER_CARRIER + 1), 0);
/** How many listening ports the seeded modems take, from their base on. */
export const SEEDED_MODEM_PORTS = 2 * SEEDED_MODEMS;

/**
 * The listening ports of the i-th seeded modem: unique across every seeded host (the embedded agent serves them all
 * on one machine), within 1024–65535, and clear of the app's own PORT. `base` (SEED_MODEM_PORT_BASE) overrides the
 * default range; one that holds PORT is moved past it.
 */
export function seededModemPorts(i: number, appPort: number, base?: number): { http: number; socks: number } {
  const holds = (first: number) => appPort >= first && appPort < first + SEEDED_MODEM_PORTS;
  const first = base !== undefined
    ? (holds(base) ? appPort + 1 : base)
    : (holds(SEED_PORT_BASE) ? SEED_PORT_BASE_ALT : SEED_PORT_BASE);
  return { http: first + 2 * i, socks: first + 2 * i + 1 };
}

/** The seeded modem's own loopback address, from which the embedded agent's simulated modem sends (never 127.0.0.1). */
export const seededModemIp = (hostIndex: number, modemIndex: number) => `127.0.${hostIndex + 1}.${modemIndex + 1}`;

/**
 * The demo catalog: countries with carriers and regions, tariffs, one host per country with modems, and the demo
 * customer's opening USDT balance as a single ledger entry. Idempotent: natural keys and ON CONFLICT everywhere.
 */
export async function seedCatalog(ctx: AppContext): Promise<void> {
  const { db } = ctx;
  let imeiSeq = 0;
  // The demo hosts are reached at the host name the product itself is reached at (the curl lines use it).
  const address = new URL(ctx.config.publicUrl).hostname;
  for (const [ci, c] of COUNTRIES.entries()) {
    let modemIndex = 0;
    await db.insertInto('countries').values({ code: c.code, names: JSON.stringify(c.names) as unknown as LocalizedNames, sort: ci })
      .onConflict((oc) => oc.column('code').doNothing()).execute();
    const country = await db.selectFrom('countries').select('id').where('code', '=', c.code).executeTakeFirstOrThrow();
    const hostName = `${c.code.toLowerCase()}1.proxy.cellport.local`;
    await db.insertInto('hosts').values({ name: hostName, address }).onConflict((oc) => oc.column('name').doNothing()).execute();
    await db.updateTable('hosts').set({ address }).where('name', '=', hostName).where('address', '<>', address).execute();
    const host = await db.selectFrom('hosts').select('id').where('name', '=', hostName).executeTakeFirstOrThrow();

    for (const kind of ['dedicated', 'shared'] as const) {
      for (const period of ['day', 'week', 'month'] as const) {
        const names = Object.fromEntries((['en', 'ru', 'cn'] as const).map((l) => [l, `${KIND_NAMES[kind][l]} · ${PERIOD_NAMES[period][l]}`]));
        await db.insertInto('tariffs').values({
          seed_key: `${c.code}:${kind}:${period}`, names: JSON.stringify(names) as unknown as LocalizedNames,
          price: BigInt(PRICES[kind][period]) * 1_000_000n, period, period_days: PERIOD_DAYS[period], country_id: country.id,
          carrier_id: null, region_id: null, is_shared: kind === 'shared',
          rotation_interval: kind === 'shared' ? SHARED_INTERVAL : 0, recurring: period === 'month',
          sort: (kind === 'dedicated' ? 0 : 10) + PERIOD_DAYS[period],
        }).onConflict((oc) => oc.column('seed_key').doNothing()).execute();
      }
    }

    for (const carrier of c.carriers) {
      await db.insertInto('carriers').values({ country_id: country.id, name: carrier.name, asn: carrier.asn })
        .onConflict((oc) => oc.columns(['country_id', 'name']).doNothing()).execute();
      const carrierRow = await db.selectFrom('carriers').select('id').where('country_id', '=', country.id).where('name', '=', carrier.name).executeTakeFirstOrThrow();
      const regionIds: string[] = [];
      for (const region of carrier.regions) {
        await db.insertInto('regions').values({ country_id: country.id, carrier_id: carrierRow.id, name: region, name_ru: REGION_NAMES[region]?.ru, name_cn: REGION_NAMES[region]?.cn })
          .onConflict((oc) => oc.columns(['country_id', 'carrier_id', 'name']).doNothing()).execute();
        const r = await db.selectFrom('regions').select('id').where('carrier_id', '=', carrierRow.id).where('name', '=', region).executeTakeFirstOrThrow();
        regionIds.push(r.id);
      }
      for (let m = 0; m <= MODEMS_PER_CARRIER; m++) {
        const ports = seededModemPorts(imeiSeq, ctx.config.PORT, ctx.config.SEED_MODEM_PORT_BASE);
        const extIp = seededModemIp(ci, modemIndex++);
        imeiSeq++;
        const imei = `35${String(imeiSeq).padStart(13, '0')}`;
        const shared = m === MODEMS_PER_CARRIER;
        await db.insertInto('modems').values({
          imei, host_id: host.id, http_port: ports.http, socks_port: ports.socks, ext_ip: extIp, driver: 'simulated',
          country_id: country.id, carrier_id: carrierRow.id, region_id: regionIds[m % regionIds.length] ?? null,
          is_shared: shared, capacity: shared ? SHARED_CAPACITY : 1, rotation_interval: shared ? SHARED_INTERVAL : null,
        }).onConflict((oc) => oc.column('imei').doNothing()).execute();
        await correctOldSeededModem(ctx, host.id, imei, ports, extIp);
      }
    }
  }

  const demo = await db.selectFrom('users').select('id').where('email', '=', ctx.config.DEMO_EMAIL).executeTakeFirst();
  if (demo && ctx.config.DEMO_BALANCE > 0) {
    const amount = BigInt(Math.round(ctx.config.DEMO_BALANCE * 100)) * 10_000n;
    // A ledger entry and its balance, as the ledger books a credit. The reference is fixed: a second run finds it
    // booked and changes nothing.
    await db.transaction().execute(async (tx) => {
      const booked = await tx.insertInto('ledger_entries')
        .values({ user_id: demo.id, coin: 'usdt', amount, kind: 'demo-credit', reference: `seed:demo-balance:${demo.id}`, payment_id: null })
        .onConflict((oc) => oc.column('reference').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!booked) return;
      await tx.insertInto('balances')
        .values({ user_id: demo.id, coin: 'usdt', amount })
        .onConflict((oc) => oc.columns(['user_id', 'coin']).doUpdateSet({ amount: sql`balances.amount + excluded.amount` }))
        .execute();
    });
  }
}

/**
 * A database seeded by the previous version has this modem on a documentation IP and ports that other hosts' modems
 * share. While it still holds such an IP (so no operator and no agent rotation set it), it gets the new seed's
 * ports, loopback address and driver — unless another modem of its host already listens on one of those ports.
 */
async function correctOldSeededModem(ctx: AppContext, hostId: string, imei: string, ports: { http: number; socks: number }, extIp: string): Promise<void> {
  const modem = await ctx.db.selectFrom('modems').select(['id', 'ext_ip', 'http_port', 'socks_port'])
    .where('imei', '=', imei).where('host_id', '=', hostId).executeTakeFirst();
  if (!modem || !OLD_DEMO_IP.test(modem.ext_ip)) return;
  const taken = await ctx.db.selectFrom('modems').select('id').where('host_id', '=', hostId).where('id', '<>', modem.id)
    .where((eb) => eb.or([eb('http_port', 'in', [ports.http, ports.socks]), eb('socks_port', 'in', [ports.http, ports.socks])]))
    .executeTakeFirst();
  if (taken) {
    ctx.log.warn({ imei }, 'seeded modem kept its old ports: another modem of its host listens on the new ones');
    return;
  }
  await ctx.db.updateTable('modems').set({ http_port: ports.http, socks_port: ports.socks, ext_ip: extIp, driver: 'simulated' })
    .where('id', '=', modem.id).execute();
}
