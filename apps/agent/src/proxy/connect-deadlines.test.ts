import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectDeadlines } from './connect-deadlines.js';
import type { Waiting } from './connect-deadlines.js';

// Connect timeouts in one list under one timer (connect-deadlines.ts): each record expires once, in order, at its own
// deadline; one that leaves early never expires; the list arms one timer however many wait.

interface Record extends Waiting { name: string }
const record = (name: string): Record => ({ name, deadline: 0, prevWaiting: null, nextWaiting: null, waiting: false });

afterEach(() => { vi.useRealTimers(); });

describe('ConnectDeadlines', () => {
  it('expires each record at its own deadline, in order, and never one that left the list', () => {
    vi.useFakeTimers({ now: 0 }); // the deadlines' clock (Date.now) moves with the timers
    const expired: string[] = [];
    const list = new ConnectDeadlines<Record>(100, (r) => expired.push(r.name), () => Date.now());
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(record) as [Record, Record, Record, Record];
    list.add(a);
    vi.advanceTimersByTime(30);
    list.add(b);
    list.add(c);
    vi.advanceTimersByTime(30);
    list.add(d);
    list.remove(c); // connected
    list.remove(c); // a second removal changes nothing
    expect(list.size).toBe(3);
    vi.advanceTimersByTime(40);
    expect(expired).toEqual(['a']);
    vi.advanceTimersByTime(30);
    expect(expired).toEqual(['a', 'b']);
    list.remove(d);
    vi.advanceTimersByTime(70);
    expect(expired).toEqual(['a', 'b']);
    expect(list.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('arms one timer for many waiting records, and clear() leaves none', () => {
    vi.useFakeTimers();
    const list = new ConnectDeadlines<Record>(1000, () => {}, () => 0);
    const spy = vi.spyOn(globalThis, 'setTimeout');
    for (let i = 0; i < 100; i++) list.add(record(String(i)));
    expect(spy).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(1);
    list.clear();
    expect(list.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    spy.mockRestore();
  });

  it('a record added again after it expired or left waits anew', () => {
    vi.useFakeTimers({ now: 0 }); // the deadlines' clock (Date.now) moves with the timers
    const expired: string[] = [];
    const list = new ConnectDeadlines<Record>(50, (r) => expired.push(r.name), () => Date.now());
    const a = record('a');
    list.add(a);
    vi.advanceTimersByTime(50);
    expect(expired).toEqual(['a']);
    list.add(a); // a retry with another source port
    vi.advanceTimersByTime(30);
    list.remove(a);
    list.add(a);
    vi.advanceTimersByTime(49);
    expect(expired).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['a', 'a']);
  });
});
