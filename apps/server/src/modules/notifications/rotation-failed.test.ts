import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json, seedTestCatalog } from '../../../test/fixtures.js';

let t: TestApp;
beforeAll(async () => { t = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '5', MODEM_SIM_SAME_IP_RATE: '1' }); });
afterAll(async () => { await t.close(); });

it('a failed rotation leaves a notification for the port owner, and a purchase one of type payment', async () => {
  const cat = await seedTestCatalog(t);
  const c = await createCustomer(t, 1000, 'ru');
  const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
    tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(bought.statusCode, bought.body).toBe(200);
  const port = bought.json().data.modems[0] as { _id: string; modem_name: string };
  const rotated = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${port._id}/rotate`, ...json(c.cookie) });
  expect(rotated.json().applyStatus).toBe('failed');

  const list = (await t.app.inject({ method: 'GET', url: '/api/v1/notifications', ...json(c.cookie) })).json();
  expect(list.data[0]).toMatchObject({ type: 'other', text: `Не удалось сменить IP у ${port.modem_name}. Попробуйте ещё раз через минуту.` });
  expect(list.data[1].type).toBe('payment');
});
