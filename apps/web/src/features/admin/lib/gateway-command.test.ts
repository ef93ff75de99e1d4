import { describe, expect, it } from 'vitest';
import { gatewayCommand, linkPort } from './gateway-command';

const id = '6f1c2a57-3d7e-4a1b-9c55-0d2f7b8e9a10';
const key = 'qB3x0n9m2Zr5Tt7yV1uW4sK8pL6hJ0gF2dS4aQ9eR1c';

describe('the gateway command', () => {
  it('takes the link port from the URL, or the scheme\'s', () => {
    expect(linkPort('http://gw.example.com:7400')).toBe(7400);
    expect(linkPort('http://gw.example.com')).toBe(80);
    expect(linkPort('https://gw.example.com')).toBe(443);
    expect(linkPort('https://[2001:db8::1]:8443/')).toBe(8443);
  });

  it('is one line with the id, the trust key and the link port', () => {
    expect(gatewayCommand({ id, linkUrl: 'http://203.0.113.7:7400' }, key))
      .toBe(`GATEWAY_ID=${id} GATEWAY_TRUST_KEY=${key} GATEWAY_LINK_PORT=7400 npm run gateway`);
  });

  it('names the TLS certificate and key for an https link', () => {
    expect(gatewayCommand({ id, linkUrl: 'https://gw.example.com' }, key)).toBe(
      `GATEWAY_ID=${id} GATEWAY_TRUST_KEY=${key} GATEWAY_LINK_PORT=443 `
      + 'GATEWAY_TLS_CERT=/etc/cellport-gateway/cert.pem GATEWAY_TLS_KEY=/etc/cellport-gateway/key.pem npm run gateway',
    );
  });
});
