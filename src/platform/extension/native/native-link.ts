import { ChunkJoiner, framesFor } from '../../../protocol/native-chunks';
import {
  EXTENSION_TO_HOST_MAX_BYTES,
  HostToWorker,
  NATIVE_HOST_NAME,
  type HostInfo,
  type WorkerToHost,
} from '../../../protocol/native-messages';
import { errorMessageOf } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import { zodMessage } from '../../../shared/zod-issues';

/** The slice of chrome.runtime the link uses (a fake in unit tests). */
export interface NativePortLike {
  postMessage(message: unknown): void;
  disconnect(): void;
  readonly onMessage: { addListener(listener: (message: unknown) => void): void };
  readonly onDisconnect: { addListener(listener: () => void): void };
}

export interface NativeRuntime {
  connectNative(name: string): NativePortLike;
  /** chrome.runtime.lastError's message, read inside onDisconnect. */
  lastErrorMessage(): string | undefined;
}

export type HostLinkState =
  | { state: 'off' }
  | { state: 'connecting'; attempt: number }
  | { state: 'connected'; host: HostInfo | null; since: number }
  | { state: 'waiting'; attempt: number; error: string; retry_at: number };

export type HostMessage = Exclude<HostToWorker, { type: 'chunk' }>;

/** Backoff between attempts to start the host: quick at first (a host that was killed), then patient. */
const BACKOFF_MS = [300, 1000, 2000, 5000, 10_000, 30_000];

/**
 * The worker's side of the native port: opens `chrome.runtime.connectNative` (Chrome starts the host
 * from its manifest), validates every message from the host with zod, joins chunked ones, chunks what
 * it sends above Chrome's 64 MiB cap, and opens the port again with backoff when the host exits. An
 * open port keeps the worker alive (Chrome 105+); a message that does not parse is answered with a
 * protocol_error and nothing else happens.
 */
export class NativeLink {
  readonly #runtime: NativeRuntime;
  readonly #log: Logger;
  readonly #joiner = new ChunkJoiner();
  readonly #stateListeners = new Set<(state: HostLinkState) => void>();
  #onMessage: (message: HostMessage) => void = () => undefined;
  #onGone: (reason: string) => void = () => undefined;
  #port: NativePortLike | undefined;
  #state: HostLinkState = { state: 'off' };
  #enabled = false;
  #attempt = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #chunkIds = 0;
  /** How many host messages were refused (the fuzz test and the panel read it). */
  refused = 0;

  constructor(runtime: NativeRuntime, log: Logger) {
    this.#runtime = runtime;
    this.#log = log;
  }

  /** Where host messages go, and who hears that the host went away (its clients' connections end). */
  handle(onMessage: (message: HostMessage) => void, onGone: (reason: string) => void): void {
    this.#onMessage = onMessage;
    this.#onGone = onGone;
  }

  get state(): HostLinkState {
    return this.#state;
  }

  onState(listener: (state: HostLinkState) => void): () => void {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  /** Turns native clients on (opens the port now) or off (closes it: the host gets EOF and exits). */
  setEnabled(enabled: boolean): void {
    if (enabled === this.#enabled) {
      return;
    }
    this.#enabled = enabled;
    if (enabled) {
      this.#attempt = 0;
      this.#open();
      return;
    }
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    const port = this.#port;
    this.#port = undefined;
    port?.disconnect();
    this.#joiner.clear();
    if (port !== undefined) {
      this.#onGone('native clients were turned off in the settings');
    }
    this.#setState({ state: 'off' });
  }

  send(message: WorkerToHost): void {
    const port = this.#port;
    if (port === undefined) {
      return;
    }
    const frames = framesFor(message, EXTENSION_TO_HOST_MAX_BYTES, () => `w${++this.#chunkIds}`);
    try {
      if (frames.length === 1) {
        port.postMessage(message);
        return;
      }
      for (const json of frames) {
        port.postMessage(JSON.parse(json));
      }
    } catch (error) {
      // The port closed under us: onDisconnect follows and the clients are told.
      this.#log.warn('could not post to the native host', { error: errorMessageOf(error) });
    }
  }

  /** One message as the port delivers it. Public so the fuzz test can feed the real handler. */
  receive(raw: unknown): void {
    const parsed = HostToWorker.safeParse(raw);
    if (!parsed.success) {
      this.refused++;
      // `whole: ''` keeps the words the host sees today: "not a host message: : ..." for the whole frame.
      const reason = `not a host message: ${zodMessage(parsed.error, { whole: '' })}`;
      this.#log.warn('refused a message from the native host', { reason });
      this.send({ type: 'protocol_error', error: { code: 'INVALID_REQUEST', message: reason } });
      return;
    }
    const message = parsed.data;
    if (message.type === 'chunk') {
      let joined: unknown;
      try {
        joined = this.#joiner.add(message);
      } catch (error) {
        this.refused++;
        this.send({ type: 'protocol_error', error: { code: 'INVALID_REQUEST', message: errorMessageOf(error) } });
        return;
      }
      if (joined === undefined) {
        return;
      }
      this.receive(joined);
      return;
    }
    if (message.type === 'hello') {
      this.#attempt = 0;
      this.#setState({ state: 'connected', host: message.host, since: Date.now() });
    }
    try {
      this.#onMessage(message);
    } catch (error) {
      this.#log.error('a native message failed', { type: message.type, error: errorMessageOf(error) });
    }
  }

  #open(): void {
    if (!this.#enabled || this.#port !== undefined) {
      return;
    }
    this.#attempt++;
    this.#setState({ state: 'connecting', attempt: this.#attempt });
    let port: NativePortLike;
    try {
      port = this.#runtime.connectNative(NATIVE_HOST_NAME);
    } catch (error) {
      this.#scheduleRetry(errorMessageOf(error));
      return;
    }
    this.#port = port;
    port.onMessage.addListener((raw) => {
      if (port === this.#port) {
        this.receive(raw);
      }
    });
    port.onDisconnect.addListener(() => {
      const reason = this.#runtime.lastErrorMessage() ?? 'the native host closed the port';
      if (port !== this.#port) {
        return;
      }
      this.#port = undefined;
      this.#joiner.clear();
      this.#log.info('native host gone', { reason });
      this.#onGone(reason);
      this.#scheduleRetry(reason);
    });
  }

  #scheduleRetry(error: string): void {
    if (!this.#enabled) {
      return;
    }
    const delay = BACKOFF_MS[Math.max(0, Math.min(this.#attempt - 1, BACKOFF_MS.length - 1))] ?? 30_000;
    this.#setState({ state: 'waiting', attempt: this.#attempt, error, retry_at: Date.now() + delay });
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#open();
    }, delay);
  }

  #setState(state: HostLinkState): void {
    this.#state = state;
    for (const listener of this.#stateListeners) {
      listener(state);
    }
  }
}
