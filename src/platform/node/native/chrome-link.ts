import type { Readable, Writable } from 'node:stream';
import { ChunkJoiner, framesFor } from '../../../protocol/native-chunks';
import {
  FRAME_READ_LIMIT_BYTES,
  HOST_TO_EXTENSION_MAX_BYTES,
  WorkerToHost,
  type HostToWorker,
} from '../../../protocol/native-messages';
import { errorMessageOf, type ErrorCode } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import { zodMessage } from '../../../shared/zod-issues';
import { encodeFrame, FrameDecoder } from './frame-codec';

export interface ChromeLinkHandlers {
  message(message: WorkerToHost): void;
  /** A frame the host could not use; the worker is told too (protocol_error). */
  bad(code: ErrorCode, reason: string): void;
  /** Chrome closed our stdin (the port closed, the worker stopped) or stdout broke. */
  end(reason: string): void;
}

/**
 * The host's side of Chrome's native port: frames in on stdin, frames out on stdout, nothing else on
 * stdout. Writes honour backpressure (a full pipe queues frames until `drain`, and `congested` tells
 * the broker to stop reading its clients meanwhile). Messages over Chrome's 1 MiB limit go as chunks.
 */
export class ChromeLink {
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #log: Logger;
  readonly #decoder: FrameDecoder;
  readonly #frameLimit: number;
  readonly #joiner = new ChunkJoiner();
  readonly #queue: Buffer[] = [];
  readonly #drainListeners = new Set<() => void>();
  #handlers: ChromeLinkHandlers | undefined;
  #waitingForDrain = false;
  #ended = false;
  #chunkIds = 0;
  framesIn = 0;
  framesOut = 0;

  constructor(input: Readable, output: Writable, log: Logger, frameLimitBytes: number = FRAME_READ_LIMIT_BYTES) {
    this.#input = input;
    this.#output = output;
    this.#log = log;
    this.#frameLimit = frameLimitBytes;
    this.#decoder = new FrameDecoder(frameLimitBytes);
  }

  start(handlers: ChromeLinkHandlers): void {
    this.#handlers = handlers;
    this.#input.on('data', (chunk: Buffer) => this.#onData(chunk));
    this.#input.once('end', () => this.#end('stdin closed'));
    this.#input.once('error', (error) => this.#end(`stdin failed: ${error.message}`));
    this.#output.on('error', (error) => this.#end(`stdout failed: ${error.message}`));
    this.#output.on('drain', () => this.#flush());
  }

  /** True while frames wait for the pipe to drain. */
  get congested(): boolean {
    return this.#waitingForDrain;
  }

  onDrain(listener: () => void): () => void {
    this.#drainListeners.add(listener);
    return () => this.#drainListeners.delete(listener);
  }

  send(message: HostToWorker): void {
    if (this.#ended) {
      return;
    }
    for (const json of framesFor(message, HOST_TO_EXTENSION_MAX_BYTES, () => `h${++this.#chunkIds}`)) {
      this.#queue.push(encodeFrame(json));
    }
    // While the pipe is full, frames wait in the queue; `drain` sends them.
    if (!this.#waitingForDrain) {
      this.#flush();
    }
  }

  /** Resolves once every queued frame has been handed to the pipe (or the pipe broke). */
  async flushed(): Promise<void> {
    while (this.#queue.length > 0 && !this.#ended) {
      await new Promise<void>((resolve) => {
        const dispose = this.onDrain(() => {
          dispose();
          resolve();
        });
      });
    }
  }

  #flush(): void {
    this.#waitingForDrain = false;
    let frame: Buffer | undefined;
    while (!this.#ended && (frame = this.#queue.shift()) !== undefined) {
      this.framesOut++;
      if (!this.#output.write(frame)) {
        this.#waitingForDrain = true;
        return;
      }
    }
    for (const listener of [...this.#drainListeners]) {
      listener();
    }
  }

  #onData(chunk: Buffer): void {
    for (const decoded of this.#decoder.push(chunk)) {
      this.framesIn++;
      switch (decoded.kind) {
        case 'oversized':
          this.#bad('INVALID_REQUEST', `a frame of ${decoded.bytes} bytes is over the ${this.#frameLimit}-byte limit`);
          break;
        case 'bad_utf8':
          this.#bad('INVALID_JSON', `a frame of ${decoded.bytes} bytes is not UTF-8`);
          break;
        case 'frame':
          this.#onText(decoded.text);
          break;
      }
    }
  }

  #onText(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.#bad('INVALID_JSON', `a frame is not JSON: ${errorMessageOf(error)}`);
      return;
    }
    this.#onValue(value);
  }

  #onValue(value: unknown): void {
    const parsed = WorkerToHost.safeParse(value);
    if (!parsed.success) {
      this.#bad('INVALID_REQUEST', `a frame is not a worker message: ${zodMessage(parsed.error, { whole: '' })}`);
      return;
    }
    if (parsed.data.type !== 'chunk') {
      this.#handlers?.message(parsed.data);
      return;
    }
    let joined: unknown;
    try {
      joined = this.#joiner.add(parsed.data);
    } catch (error) {
      this.#bad('INVALID_REQUEST', errorMessageOf(error));
      return;
    }
    if (joined !== undefined) {
      this.#onValue(joined);
    }
  }

  #bad(code: ErrorCode, reason: string): void {
    this.#log.warn('bad frame from the extension', { code, reason });
    this.#handlers?.bad(code, reason);
    this.send({ type: 'protocol_error', error: { code, message: reason } });
  }

  #end(reason: string): void {
    if (this.#ended) {
      return;
    }
    this.#ended = true;
    this.#joiner.clear();
    this.#handlers?.end(reason);
    for (const listener of [...this.#drainListeners]) {
      listener();
    }
  }
}
