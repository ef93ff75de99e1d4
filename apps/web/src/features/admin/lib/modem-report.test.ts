import { describe, expect, it } from 'vitest';
import { deviceText, rotationText, signalText } from './modem-report';

// A stand-in for the admin namespace: the key and its values, so the test sees what would be filled in.
const t = (key: string, o: Record<string, unknown> = {}) => `${key}(${Object.entries(o).map(([k, v]) => `${k}=${String(v)}`).join(',')})`;
const signal = (s: Partial<Record<'rssi' | 'rsrp' | 'rsrq' | 'sinr' | 'quality', number>>) =>
  ({ signal: { rssi: null, rsrp: null, rsrq: null, sinr: null, quality: null, ...s } });

describe('modem report texts', () => {
  it('shows RSRP and SINR, else RSSI, else ModemManager\'s quality; nothing without a signal', () => {
    expect(signalText(signal({ rsrp: -97.5, sinr: 9, rssi: -70 }), t, 'en')).toBe('hosts.signalRsrp(value=-97.5) · hosts.signalSinr(value=9)');
    expect(signalText(signal({ rssi: -71 }), t, 'en')).toBe('hosts.signalRssi(value=-71)');
    expect(signalText(signal({ quality: 64 }), t, 'ru')).toBe('hosts.signalQuality(value=64)');
    expect(signalText(signal({}), t, 'en')).toBeNull();
    expect(signalText({ signal: null }, t, 'en')).toBeNull();
  });

  it('shows the last rotation\'s time and the success rate, nothing before the first rotation', () => {
    expect(rotationText({ rotations: { total: 4, succeeded: 3, collisions: 1, lastMs: 7400 }, successRate: 0.75 }, t, 'en'))
      .toBe('hosts.rotationTime(seconds=7.4) · hosts.rotationRate(rate=75,succeeded=3,total=4)');
    expect(rotationText({ rotations: { total: 1, succeeded: 0, collisions: 1, lastMs: null }, successRate: 0 }, t, 'en'))
      .toBe('hosts.rotationRate(rate=0,succeeded=0,total=1)');
    expect(rotationText({ rotations: { total: 0, succeeded: 0, collisions: 0, lastMs: null }, successRate: null }, t, 'en')).toBeNull();
    expect(rotationText({ rotations: null, successRate: null }, t, 'en')).toBeNull();
  });

  it('names the device once', () => {
    expect(deviceText({ manufacturer: 'Huawei', model: 'E3372h-320' })).toBe('Huawei E3372h-320');
    expect(deviceText({ manufacturer: 'Huawei', model: 'Huawei E8372' })).toBe('Huawei E8372');
    expect(deviceText({ manufacturer: null, model: 'EM7455' })).toBe('EM7455');
    expect(deviceText({ manufacturer: null, model: null })).toBeNull();
  });
});
