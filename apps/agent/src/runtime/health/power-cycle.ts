import { execFile } from 'node:child_process';

// The last step of a modem's recovery: the host's own command that cuts and restores power to the modem's USB port
// (uhubctl on a hub with per-port power switching, a relay board's tool, a GPIO script). It is configured per modem
// in the modems file (`powerCycle`) or once for the host (AGENT_POWER_CYCLE_COMMAND) with placeholders for the
// modem's USB port, and run with execFile: no shell, so nothing in a value is ever interpreted.

/** A USB port as Linux names it under /sys/bus/usb/devices: bus-port[.port…], e.g. 1-1.4. */
export const USB_PORT = /^\d{1,3}-\d{1,3}(\.\d{1,3}){0,6}$/;

export interface PowerCycleTarget {
  imei?: string;
  /** The modem's USB port, e.g. 1-1.4 (`usbPort` in the modems file). */
  usbPort?: string;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * The command's argv for one modem. A string template is split on whitespace (one word, one argument); a list is
 * taken as it is. Placeholders: {usbPort} (1-1.4), {usbHub} (1-1: the hub's location, as uhubctl's -l takes it),
 * {usbHubPort} (4: the port on that hub, uhubctl's -p), {imei}. Throws when the command needs a value the modem has
 * not got, or names an unknown placeholder.
 */
export function powerCycleArgv(command: string | string[], target: PowerCycleTarget): string[] {
  const words = typeof command === 'string' ? command.trim().split(/\s+/).filter(Boolean) : command;
  if (words.length === 0) throw new Error('the power-cycle command is empty');
  const split = target.usbPort ? /^(.*)[.-](\d+)$/.exec(target.usbPort) : null;
  const values: Record<string, string | undefined> = {
    usbPort: target.usbPort, usbHub: split?.[1], usbHubPort: split?.[2], imei: target.imei,
  };
  return words.map((word) => word.replace(PLACEHOLDER, (_m, name: string) => {
    if (!(name in values)) throw new Error(`the power-cycle command has an unknown placeholder {${name}} (known: {usbPort}, {usbHub}, {usbHubPort}, {imei})`);
    const value = values[name];
    if (value === undefined) throw new Error(`the power-cycle command needs {${name}}, and this modem has no ${name.startsWith('usb') ? 'usbPort' : name} in the modems file`);
    return value;
  }));
}

/** Runs argv (execFile, no shell) within `timeoutMs`; rejects with the exit code or signal and the end of stderr. */
export function runPowerCycle(argv: string[], timeoutMs: number): Promise<void> {
  const [file, ...args] = argv;
  return new Promise((resolve, reject) => {
    execFile(file!, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 20, windowsHide: true }, (err, _stdout, stderr) => {
      if (!err) return resolve();
      const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null; code?: string | number | null };
      const tail = String(stderr ?? '').trim().split('\n').slice(-2).join(' ').slice(0, 200);
      if (e.code === 'ENOENT') return reject(new Error(`the power-cycle command ${file} is not installed (not found on PATH)`));
      if (e.killed) return reject(new Error(`the power-cycle command ${file} did not finish within ${timeoutMs} ms`));
      reject(new Error(`the power-cycle command ${file} failed (${e.signal ? `signal ${e.signal}` : `exit code ${String(e.code)}`})${tail ? `: ${tail}` : ''}`));
    });
  });
}
