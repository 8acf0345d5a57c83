interface Deadline {
  readonly at: number;
  readonly expire: () => void;
}

/**
 * Handler deadlines on one shared timer. A timer per handler call (set, then cleared a microsecond
 * later) was a large part of an emit's cost; here the timer is armed for the earliest deadline and only
 * moved when an earlier one arrives. It is unref'd where the platform allows, so a finished Node
 * process does not stay up waiting for a deadline nobody holds any more.
 */
export class DeadlineTimer {
  readonly #pending = new Set<Deadline>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #armedAt = Infinity;

  /** Settles like `promise`, or rejects with `onExpire()` after `ms`. */
  race<T>(promise: Promise<T>, ms: number, onExpire: () => Error): Promise<T> {
    if (!Number.isFinite(ms)) {
      return promise;
    }
    return new Promise<T>((resolve, reject) => {
      const deadline: Deadline = { at: performance.now() + ms, expire: () => reject(onExpire()) };
      this.#pending.add(deadline);
      this.#arm(deadline.at);
      promise.then(
        (value) => {
          this.#pending.delete(deadline);
          resolve(value);
        },
        (error: unknown) => {
          this.#pending.delete(deadline);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  #arm(at: number): void {
    if (at >= this.#armedAt) {
      return;
    }
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
    }
    this.#armedAt = at;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, at - performance.now()));
    const handle: unknown = this.#timer;
    if (typeof handle === 'object' && handle !== null && 'unref' in handle && typeof handle.unref === 'function') {
      (handle as { unref(): void }).unref();
    }
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const deadline of [...this.#pending]) {
      if (deadline.at <= now) {
        this.#pending.delete(deadline);
        deadline.expire();
      } else if (deadline.at < next) {
        next = deadline.at;
      }
    }
    if (next !== Infinity) {
      this.#arm(next);
    }
  }
}
