import type { Readable, Writable } from 'node:stream';
import { ignore } from './connection.js';
import { charge, isThrottled, limitRelay } from './port-rate-limit.js';

// One direction of a forwarded HTTP message: the target's response to the client, or the client's request body to
// the target. stream.pipeline did this per request and, in Node 20, allocated an AbortController, end-of-stream
// watchers and a dozen closures, and constructed a DOMException (with a stack trace) at the end of every message:
// about 10 % of the proxy's CPU per forwarded request (bench/BENCHMARKS.md). These handlers are module-level and find
// the other end through a symbol, as splice.ts does for tunnels. Same semantics as pipeline: backpressure (a full
// sink pauses the source until it drains), the source's end ends the sink, and either side closing before it is done
// (an abort, an error, a reset) destroys the other. Each chunk is charged to the port's bandwidth bucket of its
// direction (port-rate-limit.ts), which pauses the source while in debt.

const kSink = Symbol('cellport.sink');
const kSource = Symbol('cellport.source');
type Source = Readable & { [kSink]?: Writable };
type Sink = Writable & { [kSource]?: Readable };

function onData(this: Source, chunk: Buffer): void {
  if (!this[kSink]!.write(chunk)) this.pause();
  charge(this, chunk.length);
}
function onEnd(this: Source): void {
  this[kSink]!.end();
}
function onSourceClose(this: Source): void {
  if (!this.readableEnded) this[kSink]!.destroy();
}
function onDrain(this: Sink): void {
  const source = this[kSource]!;
  if (!isThrottled(source)) source.resume();
}
function onSinkClose(this: Sink): void {
  if (!this.writableFinished) this[kSource]!.destroy();
}

export function relay(source: Readable, sink: Writable): void {
  (source as Source)[kSink] = sink;
  (sink as Sink)[kSource] = source;
  limitRelay(source, sink);
  source.on('data', onData);
  source.on('end', onEnd);
  source.on('close', onSourceClose);
  source.on('error', ignore);
  sink.on('drain', onDrain);
  sink.on('close', onSinkClose);
  sink.on('error', ignore);
}
