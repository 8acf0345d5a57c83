/** A network request that has had no answer for too long, as the state and the events report it. */
export interface StuckRequest {
  readonly targetId: string;
  readonly url: string;
  readonly method: string;
  readonly resourceType: string;
  readonly pendingMs: number;
}

interface Open {
  targetId: string;
  url: string;
  method: string;
  resourceType: string;
  startedAt: number;
  reported: boolean;
}

/** Bounds memory on a page that opens requests without end (long polls, beacons). */
const MAX_OPEN = 1000;

/**
 * The open requests of the controlled pages (from Network.requestWillBeSent until loadingFinished or
 * loadingFailed), and which of them passed the bound: each is reported once.
 */
export class StuckRequests {
  readonly #open = new Map<string, Open>();

  started(key: string, request: Omit<Open, 'reported' | 'startedAt'>, now: number): void {
    const known = this.#open.get(key);
    if (known !== undefined) {
      // A redirect keeps the request id: the same request goes on to another URL.
      known.url = request.url;
      return;
    }
    if (this.#open.size >= MAX_OPEN) {
      this.#open.delete(this.#open.keys().next().value as string);
    }
    this.#open.set(key, { ...request, startedAt: now, reported: false });
  }

  /** The URL of the request when it had been reported stuck (so its note can go), else undefined. */
  ended(key: string): string | undefined {
    const open = this.#open.get(key);
    this.#open.delete(key);
    return open?.reported === true ? open.url : undefined;
  }

  forgetTarget(targetId: string): void {
    for (const [key, open] of this.#open) {
      if (open.targetId === targetId) {
        this.#open.delete(key);
      }
    }
  }

  /** Requests that passed `boundMs` since the last sweep (each once). */
  sweep(now: number, boundMs: number): StuckRequest[] {
    const out: StuckRequest[] = [];
    for (const open of this.#open.values()) {
      if (!open.reported && now - open.startedAt >= boundMs) {
        open.reported = true;
        out.push(this.#view(open, now));
      }
    }
    return out;
  }

  #view(open: Open, now: number): StuckRequest {
    return {
      targetId: open.targetId,
      url: open.url,
      method: open.method,
      resourceType: open.resourceType,
      pendingMs: now - open.startedAt,
    };
  }
}
