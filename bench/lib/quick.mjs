// Quick mode, shared by every bench: BENCH_QUICK=1 (or `node bench/run.mjs --quick`, which sets it) runs the same code
// paths at tiny sizes, in seconds, so CI (`npm test`) notices a bench that no longer runs. It asserts no figure; it
// fails when the bench could not do its work: a setup that throws, a peer that is missing, answers that were wrong.

export const QUICK = process.env.BENCH_QUICK === '1';

/** A numeric knob: the environment's value when set, else the full run's default or the quick mode's. */
export function knob(name, full, quick) {
  return Number(process.env[name] ?? (QUICK ? quick : full));
}

/**
 * Records that `what` went wrong (wrong answers, a failed run): printed at once and the process exits non-zero at the
 * end, in any mode; the bench goes on, so its table still prints.
 */
export function fault(what) {
  console.error(`bench fault: ${what}`);
  process.exitCode = 1;
}

/**
 * In quick mode, `fault` unless the scenario got answers (`count`, from bench/lib/load.mjs `stats`) and every one was the expected one (a full run under
 * overload may count errors as a figure; its table shows them).
 */
export function expectAnswers(name, { count, errors }) {
  if (!QUICK) return;
  if (!(count > 0)) fault(`${name}: no request answered`);
  else if (errors > 0) fault(`${name}: ${errors} of ${count} answers were not the expected ones`);
}
