import type { Http2Stream } from 'node:http2';

// Resetting an HTTP/2 stream from inside one of the session's own event handlers can free nghttp2's state while
// nghttp2 is still receiving the frame that led to it. Node 20 (decision 018) has that use-after-free (nodejs/node
// #64113, fixed by #64166 after Node 20's end of life): the soak bench (bench/soak.mjs) saw the agent abort with
// "malloc(): mismatching next->prev_size" within seconds of SOCKS5 UDP associations through a gateway, whose
// control stream's close closes the datagram stream in the same turn. So every reset that the link's side initiates
// runs on the next turn of the event loop, when nghttp2's receive has returned.

/** Closes `stream` with `code` once the current I/O callback is over (nothing when it is gone by then). */
export function closeStreamLater(stream: Http2Stream, code: number): void {
  setImmediate(() => {
    if (!stream.destroyed) stream.close(code);
  });
}
