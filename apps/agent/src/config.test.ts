import { describe, expect, it } from 'vitest';
import { AgentConfigError, loadAgentConfig } from './config.js';
import { loadGatewayConfig } from './gateway/gateway-config.js';

const KEY = 'chk_abcdefghijklmnopqrstuvwxyz012345';
const good = { CELLPORT_SERVER_URL: 'https://proxies.example.com', CELLPORT_HOST_KEY: KEY, AGENT_DATA_DIR: '/var/lib/cellport-agent' };

function failure(env: NodeJS.ProcessEnv): string {
  try {
    loadAgentConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(AgentConfigError);
    return (err as Error).message;
  }
  throw new Error('expected the settings to be refused');
}

describe('agent settings', () => {
  it('reads a stand-alone host\'s settings with safe defaults', () => {
    const config = loadAgentConfig(good);
    expect(config.CELLPORT_HOST_KEY).toEqual([KEY]);
    expect(config.AGENT_ALLOW_LOOPBACK).toBe(false);
    expect(config.AGENT_ALLOW_PRIVATE).toBe(false);
    expect(config.AGENT_LISTEN_HOST).toBe('0.0.0.0');
  });

  it('AGENT_DENY_PORTS: SMTP 25 by default, a comma-separated list, empty for none, wrong ports named', () => {
    expect(loadAgentConfig(good).AGENT_DENY_PORTS).toEqual([25]);
    expect(loadAgentConfig({ ...good, AGENT_DENY_PORTS: '25, 465,587' }).AGENT_DENY_PORTS).toEqual([25, 465, 587]);
    expect(loadAgentConfig({ ...good, AGENT_DENY_PORTS: '' }).AGENT_DENY_PORTS).toEqual([]);
    for (const wrong of ['smtp', '0', '70000', '25;465']) expect(failure({ ...good, AGENT_DENY_PORTS: wrong })).toMatch(/AGENT_DENY_PORTS: must be port numbers/);
  });

  it('takes several keys for an agent that serves several hosts', () => {
    expect(loadAgentConfig({ ...good, CELLPORT_HOST_KEY: `${KEY}, ${KEY.replace('a', 'b')}` }).CELLPORT_HOST_KEY).toHaveLength(2);
  });

  it.each([
    ['CELLPORT_SERVER_URL', { ...good, CELLPORT_SERVER_URL: undefined }],
    ['CELLPORT_SERVER_URL', { ...good, CELLPORT_SERVER_URL: 'proxies.example.com' }],
    ['CELLPORT_SERVER_URL', { ...good, CELLPORT_SERVER_URL: 'ftp://proxies.example.com' }],
    ['CELLPORT_HOST_KEY', { ...good, CELLPORT_HOST_KEY: undefined }],
    ['CELLPORT_HOST_KEY', { ...good, CELLPORT_HOST_KEY: 'secret' }],
    ['AGENT_DATA_DIR', { ...good, AGENT_DATA_DIR: undefined }],
  ])('a missing or wrong %s is named in the error', (name, env) => {
    expect(failure(env)).toContain(name);
  });

  it('names every wrong setting at once', () => {
    const message = failure({});
    for (const name of ['CELLPORT_SERVER_URL', 'CELLPORT_HOST_KEY', 'AGENT_DATA_DIR']) expect(message).toContain(name);
  });

  it('defaults the IP echo to the server\'s /api/v1/ip and takes a comma-separated list', () => {
    expect(loadAgentConfig(good).AGENT_IP_ECHO_URLS).toEqual(['https://proxies.example.com/api/v1/ip']);
    expect(loadAgentConfig({ ...good, AGENT_IP_ECHO_URLS: 'https://a.example/ip, http://b.example/' }).AGENT_IP_ECHO_URLS)
      .toEqual(['https://a.example/ip', 'http://b.example/']);
    expect(failure({ ...good, AGENT_IP_ECHO_URLS: 'a.example/ip' })).toMatch(/AGENT_IP_ECHO_URLS: a\.example\/ip is not an http\(s\) URL/);
    expect(loadAgentConfig(good).AGENT_ROTATE_ATTEMPTS).toBe(3);
    expect(failure({ ...good, AGENT_ROTATE_ATTEMPTS: '0' })).toContain('AGENT_ROTATE_ATTEMPTS');
  });

  it('takes a modems file for one host only', () => {
    expect(loadAgentConfig({ ...good, AGENT_MODEMS: '/etc/cellport/modems.yaml' }).AGENT_MODEMS).toBe('/etc/cellport/modems.yaml');
    expect(failure({ ...good, AGENT_MODEMS: '/etc/cellport/modems.yaml', CELLPORT_HOST_KEY: `${KEY},${KEY.replace('a', 'b')}` }))
      .toMatch(/AGENT_MODEMS: a modems file belongs to one host/);
  });

  it('keeps the modems\' policy routing only when asked, from table 101 unless told', () => {
    expect(loadAgentConfig(good).AGENT_POLICY_ROUTING).toBe(false);
    const on = loadAgentConfig({ ...good, AGENT_MODEMS: '/etc/cellport/modems.yaml', AGENT_POLICY_ROUTING: 'true' });
    expect([on.AGENT_POLICY_ROUTING, on.AGENT_POLICY_ROUTING_TABLE]).toEqual([true, 101]);
    expect(failure({ ...good, AGENT_POLICY_ROUTING: 'true' })).toMatch(/AGENT_POLICY_ROUTING: routes the modems of a modems file/);
    expect(failure({ ...good, AGENT_MODEMS: '/m.yaml', AGENT_POLICY_ROUTING_TABLE: '254' })).toMatch(/AGENT_POLICY_ROUTING_TABLE: must not be 253, 254 or 255/);
  });

  it('serves metrics only on a port it is given, on 127.0.0.1 unless told, with a token of 16 characters or more', () => {
    const off = loadAgentConfig(good);
    expect([off.AGENT_METRICS_PORT, off.AGENT_METRICS_HOST, off.METRICS_TOKEN]).toEqual([undefined, '127.0.0.1', undefined]);
    const on = loadAgentConfig({ ...good, AGENT_METRICS_PORT: '9464', AGENT_METRICS_HOST: '10.0.0.5', METRICS_TOKEN: 'a'.repeat(16) });
    expect([on.AGENT_METRICS_PORT, on.AGENT_METRICS_HOST, on.METRICS_TOKEN]).toEqual([9464, '10.0.0.5', 'a'.repeat(16)]);
    expect(loadAgentConfig({ ...good, AGENT_METRICS_PORT: '9464', METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
    expect(loadAgentConfig({ ...good, AGENT_METRICS_PORT: '' }).AGENT_METRICS_PORT).toBeUndefined();
    expect(failure({ ...good, AGENT_METRICS_PORT: '70000' })).toContain('AGENT_METRICS_PORT');
    expect(failure({ ...good, AGENT_METRICS_PORT: 'nine' })).toContain('AGENT_METRICS_PORT');
    expect(failure({ ...good, METRICS_TOKEN: 'short' })).toMatch(/METRICS_TOKEN: must be at least 16 characters/);
  });

  it('gives the gateway the same metrics settings on GATEWAY_METRICS_PORT', () => {
    const gateway = { GATEWAY_ID: '8b0f3c1e-4a5d-4f6e-9b7a-0c1d2e3f4a5b', GATEWAY_TRUST_KEY: 'k'.repeat(43) };
    const off = loadGatewayConfig(gateway);
    expect([off.GATEWAY_METRICS_PORT, off.GATEWAY_METRICS_HOST, off.METRICS_TOKEN]).toEqual([undefined, '127.0.0.1', undefined]);
    expect(loadGatewayConfig({ ...gateway, GATEWAY_METRICS_PORT: '9465', METRICS_TOKEN: 'b'.repeat(20) }).GATEWAY_METRICS_PORT).toBe(9465);
    expect(() => loadGatewayConfig({ ...gateway, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
  });
});
