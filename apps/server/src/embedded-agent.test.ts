import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { embeddedAgentEnv } from './embedded-agent.js';

const base = { NODE_ENV: 'development', PORT: '3000', DATA_DIR: '/tmp/cellport-embedded-env' };

describe('the embedded agent\'s environment', () => {
  it('passes on the metrics port and the server\'s token only when both are set', () => {
    const env = embeddedAgentEnv(loadConfig({ ...base, METRICS_TOKEN: 'embedded-metrics-token-0123', EMBEDDED_AGENT_METRICS_PORT: '9464' }), 3000, ['k1', 'k2']);
    expect(env).toMatchObject({ AGENT_METRICS_PORT: '9464', METRICS_TOKEN: 'embedded-metrics-token-0123', CELLPORT_HOST_KEY: 'k1,k2' });

    expect(embeddedAgentEnv(loadConfig({ ...base, EMBEDDED_AGENT_METRICS_PORT: '9464' }), 3000, ['k']).AGENT_METRICS_PORT).toBeUndefined();
    expect(embeddedAgentEnv(loadConfig({ ...base, METRICS_TOKEN: 'embedded-metrics-token-0123' }), 3000, ['k'])).not.toHaveProperty('METRICS_TOKEN');
  });

  it('keeps the demo\'s ports on loopback for a loopback PUBLIC_URL and gives the agent nothing else of the server\'s environment', () => {
    const env = embeddedAgentEnv(loadConfig({ ...base, PUBLIC_URL: 'http://localhost:3000', SESSION_SECRET: 's'.repeat(40) }), 3000, ['k']);
    expect(env.AGENT_LISTEN_HOST).toBe('127.0.0.1');
    expect(env.CELLPORT_SERVER_URL).toBe('http://127.0.0.1:3000');
    expect(Object.values(env)).not.toContain('s'.repeat(40));
  });

  // Issue 26, item 4: ports listening on all addresses must not lead customers to this machine's loopback.
  it('allows loopback targets only when the ports listen on loopback', () => {
    for (const url of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
      const env = embeddedAgentEnv(loadConfig({ ...base, PUBLIC_URL: url }), 3000, ['k']);
      expect([env.AGENT_LISTEN_HOST, env.AGENT_ALLOW_LOOPBACK], url).toEqual(['127.0.0.1', 'true']);
    }
    const staging = embeddedAgentEnv(loadConfig({ ...base, PUBLIC_URL: 'https://demo.example.com' }), 3000, ['k']);
    expect([staging.AGENT_LISTEN_HOST, staging.AGENT_ALLOW_LOOPBACK]).toEqual(['0.0.0.0', 'false']);
  });
});
