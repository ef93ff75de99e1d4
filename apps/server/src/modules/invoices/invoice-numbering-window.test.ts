import { describe, expect, it } from 'vitest';
import type { InvoicesRepository } from './invoices.repository.js';
import { InvoiceNumbering } from './invoice-numbers.js';

/** A numbering whose batches are counted; `unnumbered` is what the probe answers; a batch can be held open. */
function counted(windowMs = 10_000) {
  const calls = { batches: 0, unnumbered: false };
  let release: (() => void) | undefined;
  let started: (() => void) | undefined;
  const repo = {
    anyUnnumbered: async () => calls.unnumbered,
    numberPending: async () => {
      calls.batches++;
      started?.();
      if (release === undefined) return 0;
      await new Promise<void>((r) => { release = r; });
      return 0;
    },
  } as unknown as InvoicesRepository;
  const numbering = new InvoiceNumbering(repo, { error: () => {} }, windowMs);
  return {
    numbering, calls,
    /** The next batch waits until `finish()`; resolves when it has started. */
    holdNext: () => { release = () => {}; return new Promise<void>((r) => { started = r; }); },
    finish: () => { const r = release; release = undefined; r?.(); },
  };
}

// Issue 31: the numbering is one commit per batch, so the purchases of a moment share one batch instead of each kick
// (each purchase) starting one while the last is still running.
describe('invoice numbering window', () => {
  it('kicks within the window share one batch; idle() numbers it without waiting for the window', async () => {
    const { numbering, calls } = counted();
    for (let i = 0; i < 10; i++) numbering.kick();
    expect(calls.batches).toBe(0);
    await numbering.idle();
    expect(calls.batches).toBe(1);
  });

  it('settle() numbers at once what is pending, and the kick it overtook adds no batch', async () => {
    const { numbering, calls } = counted();
    numbering.kick();
    calls.unnumbered = true;
    await numbering.settle();
    expect(calls.batches).toBe(1);
    await numbering.idle();
    expect(calls.batches).toBe(1);
  });

  it('a kick during a batch is not lost: the next window numbers it', async () => {
    const { numbering, calls, holdNext, finish } = counted(1);
    const started = holdNext();
    numbering.kick();
    await started;
    numbering.kick();
    finish();
    await numbering.idle();
    expect(calls.batches).toBe(2);
  });

});
