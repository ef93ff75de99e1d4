import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { modemsStore } from './modems';
import type { ModemView } from './store-types';

// The store's actions work on the query cache (decision 020): one client holds what they change.
const client = new QueryClient();

const modem = (id: string, IMEI: string, ext_ip: string, extra: Partial<ModemView> = {}) =>
  ({ _id: id, IMEI, ext_ip, applyStatus: 'idle', modem_name: `port ${id}`, ...extra }) as unknown as ModemView;
const state = () => modemsStore(client);

describe('modems store (spec §4)', () => {
  beforeEach(() => state().load([]));

  it('load replaces the list', () => {
    state().load([modem('a', '1', '10.0.0.1')]);
    state().load([modem('b', '2', '10.0.0.2')]);
    expect(state().modems.map((m) => m._id)).toEqual(['b']);
  });

  it('add or update by _id: updates in place, appends a new one', () => {
    state().load([modem('a', '1', '10.0.0.1'), modem('b', '2', '10.0.0.2')]);
    state().addOrUpdate(modem('a', '1', '10.0.0.9', { modem_name: 'renamed' }));
    state().addOrUpdate(modem('c', '3', ''));
    expect(state().modems.map((m) => [m._id, m.modem_name, m.ext_ip])).toEqual([
      ['a', 'renamed', '10.0.0.9'],
      ['b', 'port b', '10.0.0.2'],
      ['c', 'port c', ''],
    ]);
  });

  it('update by IMEI sets applyStatus and ext_ip on every port of that modem', () => {
    // A shared modem appears once per customer port, each with the same IMEI.
    state().load([modem('a', '111', '10.0.0.1'), modem('b', '111', '10.0.0.1'), modem('c', '222', '10.0.0.3')]);
    state().updateByImei({ IMEI: '111', applyStatus: 'rotating', ext_ip: '10.0.0.7' } as never);
    expect(state().modems.map((m) => [m._id, m.applyStatus, m.ext_ip])).toEqual([
      ['a', 'rotating', '10.0.0.7'],
      ['b', 'rotating', '10.0.0.7'],
      ['c', 'idle', '10.0.0.3'],
    ]);
  });

  it('update by IMEI keeps the old ext_ip when none is sent', () => {
    state().load([modem('a', '111', '10.0.0.1')]);
    state().updateByImei({ IMEI: '111', applyStatus: 'rotating' } as never);
    expect(state().modems[0]).toMatchObject({ applyStatus: 'rotating', ext_ip: '10.0.0.1' });
    state().updateByImei({ IMEI: '111', applyStatus: 'idle', ext_ip: null } as never);
    expect(state().modems[0]).toMatchObject({ applyStatus: 'idle', ext_ip: '10.0.0.1' });
  });

  it('delete removes by _id', () => {
    state().load([modem('a', '1', ''), modem('b', '2', '')]);
    state().remove('a');
    expect(state().modems.map((m) => m._id)).toEqual(['b']);
  });
});
