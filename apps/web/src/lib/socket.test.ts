import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectRealtime, describeConnectError } from './socket';

/** A stand-in for the realtime socket: records handlers so a test can play the server's part (realtime-client.test.ts
 * runs the real client against a real socket.io server). */
function fakeSocket() {
  const handlers = new Map<string, Array<(arg: unknown) => void>>();
  const add = (name: string, fn: (arg: unknown) => void) => { handlers.set(name, [...(handlers.get(name) ?? []), fn]); };
  const socket = {
    on: vi.fn((name: string, fn: (arg: unknown) => void) => { add(name, fn); return socket; }),
    once: vi.fn((name: string, fn: (arg: unknown) => void) => { add(name, fn); return socket; }),
    close: vi.fn(),
    emit: (name: string, arg?: unknown) => { for (const fn of handlers.get(name) ?? []) fn(arg); },
  };
  return socket;
}

afterEach(() => { vi.useRealTimers(); vi.restoreAllMocks(); });

describe('connectRealtime', () => {
  it('connects to /socket.io with the token and forwards events', async () => {
    const socket = fakeSocket();
    const open = vi.fn(() => socket);
    const onEvent = vi.fn();
    const log = vi.fn();
    const pending = connectRealtime({ events: ['modem'], onEvent, fetchToken: async () => 'tok1', open: open as never, log });
    await vi.waitFor(() => expect(open).toHaveBeenCalled(), { timeout: 15_000 });
    expect(open).toHaveBeenCalledWith({ path: '/socket.io', token: 'tok1' });
    socket.emit('connect');
    await expect(pending).resolves.toMatchObject({ ok: true });
    expect(log).toHaveBeenCalledWith('Realtime: connected');
    socket.emit('modem', { IMEI: '1', applyStatus: 'idle' });
    expect(onEvent).toHaveBeenCalledWith('modem', { IMEI: '1', applyStatus: 'idle' });
  });

  it('waits 300 ms before reporting, even when the server answers at once', async () => {
    vi.useFakeTimers();
    const socket = fakeSocket();
    let done = false;
    const pending = connectRealtime({ events: [], onEvent: () => {}, fetchToken: async () => 't', open: (() => socket) as never, log: () => {} })
      .then((r) => { done = true; return r; });
    await vi.advanceTimersByTimeAsync(0);
    socket.emit('connect');
    await vi.advanceTimersByTimeAsync(299);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toMatchObject({ ok: true });
  });

  it("reports the server's invalid_token as 'Invalid token' with console.log only, and closes the socket", async () => {
    const socket = fakeSocket();
    const logSpy = vi.spyOn(console, 'log').mockImplementation(() => {});
    const errorSpy = vi.spyOn(console, 'error');
    const pending = connectRealtime({ events: [], onEvent: () => {}, fetchToken: async () => 'bad', open: (() => socket) as never });
    await vi.waitFor(() => expect(socket.once).toHaveBeenCalled(), { timeout: 15_000 });
    socket.emit('connect_error', new Error('invalid_token'));
    await expect(pending).resolves.toMatchObject({ ok: false, error: 'Invalid token' });
    expect(logSpy).toHaveBeenCalledWith('Realtime: Invalid token');
    expect(errorSpy).not.toHaveBeenCalled();
    expect(socket.close).toHaveBeenCalled();
  });

  it('logs a failed token fetch and does not connect', async () => {
    const log = vi.fn();
    const open = vi.fn();
    const outcome = await connectRealtime({ events: [], onEvent: () => {}, fetchToken: () => Promise.reject(new Error('401')), open, log });
    expect(outcome).toEqual({ ok: false, error: 'token', socket: null });
    expect(open).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith('Realtime: could not get a token', '401');
  });

  it('passes other connect errors through unchanged', () => {
    expect(describeConnectError('xhr poll error')).toBe('xhr poll error');
  });
});
