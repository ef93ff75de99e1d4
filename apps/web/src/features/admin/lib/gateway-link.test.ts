import { describe, expect, it } from 'vitest';
import { linkStateKey, linkTone } from './gateway-link';

const at = '2026-12-08T10:00:00.000Z';

describe('a host\'s link to its gateway', () => {
  it('is fine when up, on its way when connecting, needs someone when down or refused', () => {
    expect(linkTone({ state: 'up', problem: null, changedAt: at }, true)).toBe('ok');
    expect(linkTone({ state: 'connecting', problem: 'cannot reach the gateway', changedAt: at }, true)).toBe('warn');
    expect(linkTone({ state: 'down', problem: null, changedAt: at }, true)).toBe('bad');
    expect(linkTone({ state: 'refused', problem: 'ticket expired', changedAt: at }, true)).toBe('bad');
  });

  it('shows an offline host\'s last report neutral: nobody reports it now', () => {
    expect(linkTone({ state: 'up', problem: null, changedAt: at }, false)).toBe('neutral');
    expect(linkTone({ state: 'refused', problem: 'x', changedAt: at }, false)).toBe('neutral');
  });

  it('names each state\'s text', () => {
    expect(linkStateKey({ state: 'refused', problem: null, changedAt: at })).toBe('gateways.linkState.refused');
  });
});
