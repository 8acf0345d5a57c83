import type { CdpEventMessage, Protocol } from '../protocol/cdp';
import { TabpilotError } from '../shared/errors';
import { abortReason } from '../shared/time';

/** One `Page.lifecycleEvent` of a page's main frame, stamped when it arrived. */
export interface LifecycleEntry {
  readonly name: string;
  readonly loaderId: string;
  readonly receivedAt: number;
}

interface Waiter {
  match: (entry: LifecycleEntry) => boolean;
  resolve: (entry: LifecycleEntry) => void;
}

/**
 * Per-target ring of main-frame lifecycle events (browser-use keeps 50). Navigation readiness waits on
 * it: an event that already arrived is found in the buffer, a later one wakes the waiter.
 */
export class LifecycleBuffer {
  readonly #capacity: number;
  readonly #entries: LifecycleEntry[] = [];
  readonly #waiters = new Set<Waiter>();
  #mainFrame: { loaderId: string; url: string } | undefined;

  constructor(capacity = 50) {
    this.#capacity = capacity;
  }

  get entries(): readonly LifecycleEntry[] {
    return this.#entries;
  }

  /** The main frame's latest committed document, from Page.frameNavigated. */
  get mainFrame(): { loaderId: string; url: string } | undefined {
    return this.#mainFrame;
  }

  setMainFrame(loaderId: string, url: string): void {
    this.#mainFrame = { loaderId, url };
  }

  push(entry: LifecycleEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > this.#capacity) {
      this.#entries.shift();
    }
    for (const waiter of [...this.#waiters]) {
      if (waiter.match(entry)) {
        this.#waiters.delete(waiter);
        waiter.resolve(entry);
      }
    }
  }

  /** Resolves with the first entry (buffered or future) that matches. */
  waitFor(
    match: (entry: LifecycleEntry) => boolean,
    options: { timeoutMs: number; signal?: AbortSignal; describe: () => string },
  ): Promise<LifecycleEntry> {
    const found = this.#entries.find(match);
    if (found !== undefined) {
      return Promise.resolve(found);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        match,
        resolve: (entry) => {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          resolve(entry);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        options.signal?.removeEventListener('abort', onAbort);
        reject(new TabpilotError('TIMEOUT', options.describe()));
      }, options.timeoutMs);
      const onAbort = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
        reject(abortReason(options.signal));
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.add(waiter);
    });
  }

  names(): string[] {
    return this.#entries.map((entry) => entry.name);
  }
}

/**
 * Feeds one event of a page's session into its buffer: main-frame lifecycle events (the main frame of a
 * page target has the target's id) and main-frame commits.
 */
export function trackLifecycle(buffer: LifecycleBuffer, event: CdpEventMessage, targetId: string): void {
  if (event.method === 'Page.lifecycleEvent') {
    const params = event.params as Protocol.Page.LifecycleEventEvent;
    if (params.frameId === targetId) {
      buffer.push({ name: params.name, loaderId: params.loaderId, receivedAt: performance.now() });
    }
  } else if (event.method === 'Page.frameNavigated') {
    const { frame } = event.params as Protocol.Page.FrameNavigatedEvent;
    if (frame.parentId === undefined) {
      buffer.setMainFrame(frame.loaderId, frame.url);
    }
  }
}
