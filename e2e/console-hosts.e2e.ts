// Issue 11 in the operator console: the hosts page shows each agent's last contact and its modems; the operator adds
// a host and issues its key (seen once, with the agent's settings); on a customer's page the operator suspends a
// port (abuse handling) and resumes it, and the deactivation confirmation says it cuts the customer's proxies.
import type { APIRequestContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { useBrowser, visitCheck } from './support/browser.js';
import { createOperator, demo, expectDashboard, signIn } from './support/flows.js';
import { exact, t } from './support/locales.js';
import { apiCall, buyDedicatedPort } from './support/api.js';
import { useServer } from './support/server.js';

// The embedded agent serves the seeded hosts (asked for explicitly: the hosts page should show live agents).
const server = useServer({ name: 'console-hosts', env: { EMBEDDED_AGENT: 'true' } });
const browser = useBrowser();
const operator = { email: 'hosts-ops@cellport.test', password: '' };

beforeAll(async () => {
  Object.assign(operator, await createOperator(server, operator.email));
}, 120_000);

const a = (key: string, values?: Record<string, string | number>) => t('en', `admin:${key}`, values);
const dialog = (page: Page) => page.getByRole('dialog');

/** A same-origin API call with the session of `request`'s context. */
const call = <T>(request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown) =>
  apiCall<T>(request, server.url, method, path, data);

async function toastsGone(page: Page) {
  await expect.poll(() => page.locator('[data-sonner-toast]').count(), { timeout: 10_000 }).toBe(0);
}
async function expectToast(page: Page, text: string) {
  await page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor();
}

interface AdminHost { id: string; name: string; online: boolean; agentVersion: string | null; lastSeenAt: string | null; modems: unknown[] }
interface CustomerDetail { customer: { id: string }; ports: { id: string; name: string; proxyLogin: string; suspendedAt: string | null }[] }

describe('hosts and abuse handling in the console', () => {
  test('hosts page with agents and modems; a key issued and shown once; a customer port suspended and resumed', async () => {
    const { page, context } = browser;

    // The demo customer buys a dedicated port from the demo balance; then the operator signs in in the same tab.
    await signIn(page, server.url, 'en', demo);
    await expectDashboard(page, server.url, 'en', 'Demo Customer');
    await buyDedicatedPort(context.request, server.url);
    // Leave the dashboard first: its next poll without the cookie would send the page to sign-in by itself and abort
    // the navigation below (net::ERR_ABORTED, seen in CI).
    await page.goto('about:blank');
    await context.clearCookies();
    await signIn(page, server.url, 'en', operator, { redirect: '/en/admin' });
    await page.waitForURL(`${server.url}/en/admin`);

    // Hosts: the seeded demo hosts, served by the embedded agent, with their modems; each shows its last contact,
    // agent version and uptime.
    let hosts: AdminHost[] = [];
    await expect.poll(async () => {
      hosts = (await call<{ items: AdminHost[] }>(context.request, 'GET', '/admin/hosts')).items;
      return hosts.length > 0 && hosts.every((h) => h.online);
    }, { timeout: 30_000 }).toBe(true);
    const seeded = hosts.find((h) => h.modems.length > 0)!;
    await page.goto(`${server.url}/en/admin/inventory/hosts`);
    await page.getByRole('tab', { name: a('inventory.hosts'), selected: true }).waitFor();
    const seededCard = page.locator('section', { has: page.getByRole('heading', { level: 2, name: new RegExp(`^${seeded.name.replace(/\./g, '\\.')}\\b`) }) });
    await seededCard.getByText(a('modemStatus.online'), { exact: true }).first().waitFor();
    await seededCard.getByText(seeded.agentVersion!, { exact: true }).waitFor();
    await seededCard.getByText(/^(now|\d+ seconds? ago)$/).waitFor();
    await page.getByRole('heading', { level: 2, name: new RegExp(`^${seeded.name}\\b`) }).waitFor();
    const modems = page.getByRole('region', { name: a('hosts.modemsOf', { name: seeded.name }) });
    await modems.getByRole('row').nth(seeded.modems.length).waitFor();
    // Every modem row has its state: as reported while the host is online, "No report" while it is not.
    const state = seeded.online ? /^(Online|Offline|Retired)$/ : /^(No report|Retired)$/;
    const headers = (await modems.locator('thead th').allTextContents()).map((h) => h.trim());
    const statusColumn = headers.indexOf(a('fields.status')) + 1;
    expect(statusColumn).toBeGreaterThan(0);
    const states = (await modems.locator(`tbody tr td:nth-child(${statusColumn})`).allTextContents()).map((text) => text.trim());
    expect(states.filter((text) => !state.test(text))).toEqual([]);
    await page.waitForLoadState('networkidle');
    await visitCheck(page, 'console-hosts');

    // A new host: never contacted, no key yet.
    await page.getByRole('button', { name: exact(a('inventory.addHost')) }).click();
    await dialog(page).getByLabel(a('fields.name')).fill('edge-e2e');
    await dialog(page).getByLabel(a('fields.address')).fill('proxy-e2e.example.net');
    await dialog(page).getByRole('button', { name: exact(a('inventory.addHost')) }).click();
    await expectToast(page, a('inventory.hostAdded'));
    const card = page.locator('section', { has: page.getByRole('heading', { level: 2, name: /^edge-e2e\b/ }) });
    await card.getByText(a('hosts.needKey')).waitFor();
    await card.getByText(a('hosts.never'), { exact: true }).waitFor();
    await card.getByText(a('hosts.keyNone'), { exact: true }).waitFor();

    // Issue key: first a confirmation, then the key once with the agent's settings.
    await page.getByRole('button', { name: a('hosts.issueKeyNamed', { name: 'edge-e2e' }) }).click();
    await dialog(page).getByText(a('hosts.keyConfirmFirst', { name: 'edge-e2e' })).waitFor();
    await dialog(page).getByRole('button', { name: exact(a('hosts.issueKey')) }).click();
    const keyDialog = page.getByRole('dialog', { name: a('hosts.keyTitle', { name: 'edge-e2e' }) });
    await keyDialog.waitFor();
    const key = (await keyDialog.getByTestId('host-key').locator('code').textContent())!.trim();
    expect(key).toMatch(/^chk_[A-Za-z0-9_-]{16,}$/);
    const command = (await keyDialog.locator('pre').textContent())!;
    expect(command).toBe(`CELLPORT_SERVER_URL=${server.url} \\\nCELLPORT_HOST_KEY=${key} \\\nAGENT_DATA_DIR=/var/lib/cellport-agent \\\nnpm run agent`);
    await keyDialog.getByRole('button', { name: a('hosts.copyKey') }).waitFor();
    await toastsGone(page);
    await visitCheck(page, 'console-hosts-key-once');
    await keyDialog.getByRole('button', { name: exact(a('hosts.keyDone')) }).click();
    await keyDialog.waitFor({ state: 'detached' });
    // Shown once: neither the page nor the API has it any more; the host now says a key is issued.
    await card.getByText(a('hosts.keyIssued'), { exact: true }).waitFor();
    expect(await page.content()).not.toContain(key);
    const listing = await context.request.get(`${server.url}/api/v1/admin/hosts`);
    expect(await listing.text()).not.toContain(key);

    // Issuing again warns that the current key stops working; cancel keeps it.
    await page.getByRole('button', { name: a('hosts.issueKeyNamed', { name: 'edge-e2e' }) }).click();
    await dialog(page).getByText(a('hosts.keyConfirmReplace', { name: 'edge-e2e' })).waitFor();
    await dialog(page).getByRole('button', { name: exact(a('actions.cancel')) }).click();

    // Gateways (issue 18): one added (a URL is not a public host: the shared schema says so beside the field), with the
    // line that runs it; the new host is pinned to it and says how it is reached, with no link report yet.
    await page.getByRole('tab', { name: a('inventory.gateways') }).click();
    await page.waitForURL(`${server.url}/en/admin/inventory/gateways`);
    await page.getByText(a('gateways.none')).waitFor();
    await page.getByRole('button', { name: exact(a('gateways.add')) }).click();
    await dialog(page).getByLabel(a('gateways.name')).fill('gw-e2e');
    await dialog(page).getByLabel(a('gateways.publicHost')).fill('http://gw-e2e.example.net');
    await dialog(page).getByLabel(a('gateways.linkUrl')).fill('http://gw-e2e.example.net:7400');
    await dialog(page).getByRole('button', { name: exact(a('gateways.add')) }).click();
    await dialog(page).getByText(a('gateways.invalid.publicHost')).waitFor();
    await dialog(page).getByLabel(a('gateways.publicHost')).fill('gw-e2e.example.net');
    await dialog(page).getByRole('button', { name: exact(a('gateways.add')) }).click();
    await expectToast(page, a('gateways.added'));
    const gateways = await call<{ items: { id: string; name: string }[]; trustKey: string }>(context.request, 'GET', '/admin/gateways');
    const gateway = gateways.items.find((g) => g.name === 'gw-e2e')!;
    const gatewayRow = page.getByRole('row', { name: /gw-e2e/ });
    await gatewayRow.getByText('gw-e2e.example.net', { exact: true }).waitFor();
    await page.getByTestId('gateway-trust-key').getByText(gateways.trustKey, { exact: true }).waitFor();
    expect(await page.getByTestId('gateway-command').textContent())
      .toBe(`GATEWAY_ID=${gateway.id} GATEWAY_TRUST_KEY=${gateways.trustKey} GATEWAY_LINK_PORT=7400 npm run gateway`);
    await page.getByRole('button', { name: a('gateways.copyCommand', { name: 'gw-e2e' }) }).waitFor();
    await toastsGone(page);
    await visitCheck(page, 'console-gateways');

    await page.getByRole('tab', { name: a('inventory.hosts') }).click();
    await page.getByRole('button', { name: a('inventory.editHostNamed', { name: 'edge-e2e' }) }).click();
    await dialog(page).getByLabel(a('gateways.reachedThrough')).selectOption({ label: a('gateways.gatewayOf', { name: 'gw-e2e', host: 'gw-e2e.example.net' }) });
    await dialog(page).getByRole('button', { name: exact(a('actions.save')) }).click();
    await expectToast(page, a('inventory.hostSaved'));
    await card.getByText(a('gateways.gatewayOf', { name: 'gw-e2e', host: 'gw-e2e.example.net' }), { exact: true }).waitFor();
    await card.getByText(a('gateways.noLinkReport'), { exact: true }).waitFor();
    await toastsGone(page);
    await visitCheck(page, 'console-host-behind-gateway');

    // The demo customer's page: the port, suspended (with a note for the audit log) and resumed.
    await page.goto(`${server.url}/en/admin/customers`);
    await page.getByLabel(a('customers.search')).fill('demo@');
    await page.getByRole('link', { name: demo.email, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Demo Customer' }).waitFor();
    const customerId = page.url().split('/').pop()!;
    const before = await call<CustomerDetail>(context.request, 'GET', `/admin/customers/${customerId}`);
    const port = before.ports[0]!;
    expect(port.suspendedAt).toBeNull();
    const ports = page.getByRole('region', { name: a('fields.ports') });
    await page.getByRole('button', { name: a('customers.suspendNamed', { name: port.name }) }).click();
    await dialog(page).getByText(a('customers.confirm.suspend.text', { name: port.name, login: port.proxyLogin })).waitFor();
    await dialog(page).getByLabel(a('confirm.note')).fill('Abuse report #e2e');
    await visitCheck(page, 'console-port-suspend-confirm');
    await dialog(page).getByRole('button', { name: exact(a('customers.confirm.suspend.button')) }).click();
    await expectToast(page, a('customers.suspendedToast'));
    await ports.getByText(a('customers.suspended'), { exact: true }).waitFor();
    const suspended = await call<CustomerDetail>(context.request, 'GET', `/admin/customers/${customerId}`);
    expect(suspended.ports.find((p) => p.id === port.id)!.suspendedAt).not.toBeNull();
    await toastsGone(page);
    await visitCheck(page, 'console-port-suspended');

    await page.getByRole('button', { name: a('customers.resumeNamed', { name: port.name }) }).click();
    await dialog(page).getByRole('button', { name: exact(a('customers.confirm.resume.button')) }).click();
    await expectToast(page, a('customers.resumedToast'));
    await page.getByRole('button', { name: a('customers.suspendNamed', { name: port.name }) }).waitFor();
    expect(await ports.getByText(a('customers.suspended'), { exact: true }).count()).toBe(0);
    const resumed = await call<CustomerDetail>(context.request, 'GET', `/admin/customers/${customerId}`);
    expect(resumed.ports.find((p) => p.id === port.id)!.suspendedAt).toBeNull();

    // Deactivating says it cuts the proxies (cancelled here: deactivation has its own tests).
    await page.getByRole('button', { name: exact(a('customers.deactivate')) }).click();
    await dialog(page).getByText(a('customers.confirm.deactivate.text', { email: demo.email })).waitFor();
    await dialog(page).getByRole('button', { name: exact(a('actions.cancel')) }).click();

    // The audit log has both port actions, the note kept with the suspension.
    const audit = await call<{ items: { action: string; targetId: string; after: { reason?: string | null } }[] }>(
      context.request, 'GET', `/admin/audit?target_id=${port.id}`);
    expect(audit.items.map((e) => e.action)).toEqual(['port.resume', 'port.suspend']);
    expect(audit.items[1]!.after.reason).toBe('Abuse report #e2e');
  });
});
