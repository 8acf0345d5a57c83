import type { AnyEventDefinition, BusEvent } from './define-event';
import type { EventRecord } from './event-record';

export interface FindOptions<D extends AnyEventDefinition> {
  where?: (event: BusEvent<D>) => boolean;
  /** Look back: true for all history, a number for the last N ms. Default true. */
  past?: boolean | number;
  /** Wait for a future match: true without limit, a number for up to N ms. Default false. */
  future?: boolean | number;
}

interface Waiter {
  type: string;
  where: ((event: BusEvent) => boolean) | undefined;
  resolve: (event: BusEvent | undefined) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** A bounded ring of event records, oldest evicted first, with past-and-future `find`. */
export class EventHistory {
  readonly #capacity: number;
  readonly #ring: Array<EventRecord | undefined>;
  #next = 0;
  #size = 0;
  #waiters: Waiter[] = [];

  constructor(capacity: number) {
    this.#capacity = Math.max(1, capacity);
    this.#ring = new Array<EventRecord | undefined>(this.#capacity);
  }

  add(record: EventRecord): void {
    this.#ring[this.#next] = record;
    this.#next = (this.#next + 1) % this.#capacity;
    this.#size = Math.min(this.#size + 1, this.#capacity);
  }

  /** Oldest first. */
  records(): EventRecord[] {
    const out: EventRecord[] = [];
    for (let i = 0; i < this.#size; i++) {
      const record = this.#ring[(this.#next - this.#size + i + this.#capacity) % this.#capacity];
      if (record !== undefined) {
        out.push(record);
      }
    }
    return out;
  }

  find<D extends AnyEventDefinition>(definition: D, options: FindOptions<D>): Promise<BusEvent<D> | undefined> {
    const where = options.where as ((event: BusEvent) => boolean) | undefined;
    const past = options.past ?? true;
    if (past !== false) {
      const since = typeof past === 'number' ? Date.now() - past : -Infinity;
      const records = this.records();
      for (let i = records.length - 1; i >= 0; i--) {
        const record = records[i];
        if (record === undefined || record.event.meta.createdAt < since) {
          continue;
        }
        if (record.event.type === definition.type && (where === undefined || where(record.event))) {
          return Promise.resolve(record.event as BusEvent<D>);
        }
      }
    }
    const future = options.future ?? false;
    if (future === false) {
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        type: definition.type,
        where,
        resolve: resolve as (event: BusEvent | undefined) => void,
        timer: undefined,
      };
      if (typeof future === 'number') {
        waiter.timer = setTimeout(() => {
          this.#waiters = this.#waiters.filter((candidate) => candidate !== waiter);
          resolve(undefined);
        }, future);
      }
      this.#waiters.push(waiter);
    });
  }

  resolveWaiters(record: EventRecord): void {
    if (this.#waiters.length === 0) {
      return;
    }
    const remaining: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (waiter.type === record.event.type && (waiter.where === undefined || waiter.where(record.event))) {
        if (waiter.timer !== undefined) {
          clearTimeout(waiter.timer);
        }
        waiter.resolve(record.event);
      } else {
        remaining.push(waiter);
      }
    }
    this.#waiters = remaining;
  }
}
