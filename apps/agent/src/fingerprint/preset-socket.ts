import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildOnHost } from './host-build.js';

// The preset socket addon (preset-socket.c): a TCP socket with the options that make a preset's SYN, set before it
// connects (Node cannot). Built on the host on first use against the Node-API header that comes with Node.

export interface PresetSockets {
  /**
   * A new unconnected, non-blocking TCP socket (its descriptor) bound to `address` (the port left to connect()), with
   * the mark the egress program reads, TTL 1, the window clamp and, when > 0, that receive buffer and that MSS.
   * Throws an Error whose code is the errno's name.
   */
  presetSocket(family: 4 | 6, address: string, mark: number, windowClamp: number, receiveBuffer: number, maxSegment: number): number;
}

/** Where Node's own headers are (Debian's nodejs package and Node's release archives put them there). */
export const nodeHeaders = (): string => join(dirname(process.execPath), '..', 'include', 'node');

let loaded: Promise<PresetSockets> | null = null;

/** The addon, built (once per source version) and loaded (once per process). */
export function presetSockets(dataDir: string): Promise<PresetSockets> {
  loaded ??= (async () => {
    const headers = nodeHeaders();
    if (!existsSync(join(headers, 'node_api.h'))) throw new Error(`the preset socket maker needs Node's headers (node_api.h), missing in ${headers}`);
    const addon = await buildOnHost(dataDir, 'preset-socket.c', 'preset-socket', '.node', ['-shared', '-fPIC', `-I${headers}`],
      `a C compiler and Node's headers in ${headers}`);
    return createRequire(import.meta.url)(addon) as PresetSockets;
  })();
  loaded.catch(() => { loaded = null; });
  return loaded;
}
