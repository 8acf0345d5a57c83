import type { Readable, Writable } from 'node:stream';
import type { CdpTransport, TransportCapabilities } from '../../cdp/transport';
import { isCdpIncoming, type CdpIncoming, type CdpRequest } from '../../protocol/cdp';
import { TabpilotError } from '../../shared/errors';
import { fieldOf } from '../../shared/narrow';

/** The endpoint a launch over the pipe announces: a name for logs and events, not an address. */
const PIPE_SCHEME = 'pipe:';

export function pipeEndpoint(pid: number | undefined): string {
  return `${PIPE_SCHEME}//chromium/${pid ?? 'unknown'}`;
}

export function isPipeEndpoint(endpoint: string): boolean {
  return endpoint.startsWith(PIPE_SCHEME);
}

/** Ids of the detach commands close sends, far above any the connection uses; their answers go unread. */
const DETACH_IDS_FROM = 2_000_000_000;

/**
 * A pipe cannot be dialled again: its ends were handed to the browser when it started. What a
 * dropped WebSocket would do (reconnect to the same browser) is impossible here, so the session is
 * told at once (capabilities.reconnect false) and the browser is gone with it.
 */
const PIPE_CAPABILITIES: TransportCapabilities = {
  browserDomain: true,
  ownsBrowser: true,
  reconnect: false,
  browserPages: true,
};

/**
 * The two ends of Chromium's --remote-debugging-pipe: its fd 3, which the browser reads, and its fd 4,
 * which it writes. Messages are JSON, each ended by a NUL byte. One DevTools client per pipe.
 */
export interface DevToolsPipe {
  readonly toBrowser: Writable;
  readonly fromBrowser: Readable;
}

/**
 * CDP over the launched browser's pipe (Node): no TCP port, so no other process on the machine (another
 * user's included) can reach the browser's DevTools. The session's connection is the pipe's only
 * client: once this transport is closed, the pipe is not handed out again (`claimed`).
 */
export class PipeTransport implements CdpTransport {
  readonly capabilities = PIPE_CAPABILITIES;
  onmessage: ((message: CdpIncoming) => void) | undefined;
  onclose: ((reason: string) => void) | undefined;
  readonly #pipe: DevToolsPipe;
  /** Bytes after the last NUL: the start of a message still coming (kept as bytes: a chunk may cut a UTF-8 character). */
  #pending: Buffer[] = [];
  #closed = false;
  /** The targets this client is attached to, detached again on close (see close). */
  readonly #sessions = new Set<string>();
  #detachId = DETACH_IDS_FROM;

  constructor(pipe: DevToolsPipe) {
    this.#pipe = pipe;
    pipe.fromBrowser.on('data', this.#onData);
    pipe.fromBrowser.once('close', this.#onEnd);
    pipe.fromBrowser.once('end', this.#onEnd);
    pipe.fromBrowser.on('error', this.#onError);
    pipe.toBrowser.on('error', this.#onError);
    // The launcher paused it after its readiness question; a paused stream stays paused for a listener.
    pipe.fromBrowser.resume();
  }

  send(message: CdpRequest): void {
    if (this.#closed) {
      throw new TabpilotError('DISCONNECTED', 'The browser pipe is closed');
    }
    this.#pipe.toBrowser.write(`${JSON.stringify(message)}\0`);
  }

  /**
   * Stops listening. The pipe itself stays open: closing it would end the browser, which is the
   * launcher's to end (a release leaves it running). Unlike a WebSocket's, the pipe's client outlives
   * this transport, and so would its sessions (a Fetch interception among them, holding requests
   * nobody answers): each is detached first, so the next connection over the pipe starts clean.
   */
  close(reason = 'closed by tabpilot'): void {
    if (!this.#closed) {
      for (const sessionId of this.#sessions) {
        this.#pipe.toBrowser.write(
          `${JSON.stringify({ id: this.#detachId++, method: 'Target.detachFromTarget', params: { sessionId } })}\0`,
        );
      }
    }
    this.#finish(reason);
  }

  readonly #onData = (chunk: Buffer): void => {
    let start = 0;
    let end = chunk.indexOf(0);
    while (end !== -1) {
      const text = Buffer.concat([...this.#pending, chunk.subarray(start, end)]).toString('utf8');
      this.#pending = [];
      this.#deliver(text);
      start = end + 1;
      end = chunk.indexOf(0, start);
    }
    if (start < chunk.length) {
      this.#pending.push(chunk.subarray(start));
    }
  };

  readonly #onEnd = (): void => this.#finish('the browser closed its DevTools pipe (it exited)');

  readonly #onError = (error: Error): void => this.#finish(`browser pipe error: ${error.message}`);

  #deliver(text: string): void {
    if (this.#closed) {
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      // Not JSON is not CDP: there is nothing to route it to.
      return;
    }
    if (!isCdpIncoming(message)) {
      return;
    }
    this.#track(message);
    this.onmessage?.(message);
  }

  #track(message: CdpIncoming): void {
    if (!('method' in message)) {
      return;
    }
    const sessionId = fieldOf(message.params, 'sessionId');
    if (typeof sessionId !== 'string') {
      return;
    }
    if (message.method === 'Target.attachedToTarget') {
      this.#sessions.add(sessionId);
    } else if (message.method === 'Target.detachedFromTarget') {
      this.#sessions.delete(sessionId);
    }
  }

  #finish(reason: string): void {
    if (this.#closed) {
      return;
    }
    this.#closed = true;
    this.#pipe.fromBrowser.off('data', this.#onData);
    this.#pipe.fromBrowser.off('close', this.#onEnd);
    this.#pipe.fromBrowser.off('end', this.#onEnd);
    // What comes after (answers to the detaches) waits for the next transport over this pipe, if any.
    this.#pipe.fromBrowser.pause();
    // The error listeners stay: a late error on a dying pipe must not become an uncaught one.
    this.onclose?.(reason);
  }
}
