import { estimateJsonBytes } from '../shared/json-size';
import type { AnyEventDefinition, BusEvent } from '../protocol/define-event';
import { viewOfRecord, type EventRecord, type EventRecordView } from './event-record';
import { summarize } from './summary';

export interface FindOptions<D extends AnyEventDefinition> {
  where?: (event: BusEvent<D>) => boolean;
  /** Look back: true for all history, a number for the last N ms. Default true. */
  past?: boolean | number;
  /** Wait for a future match: true without limit, a number for up to N ms. Default false. */
  future?: boolean | number;
}

/** How much history keeps: how many events, and how many bytes of their payloads and results. */
export interface HistoryLimits {
  /** Events kept (each with its lineage and timing); the oldest is dropped first. */
  maxEvents: number;
  /** Bytes (as JSON, estimated) of whole payloads and results over all kept events. */
  maxBytes: number;
  /** An event whose payload and results are bigger than this is summarised as soon as it completes. */
  maxEventBytes: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = {
  maxEvents: 200,
  maxBytes: 4 * 1024 * 1024,
  maxEventBytes: 256 * 1024,
};

/** A payload or result at most this big stays whole in a summarised event. */
const SMALL_PART_BYTES = 1024;

/** What history holds and how big it is (a debug accessor; nothing here is timed). */
export interface HistoryStats {
  events: number;
  /** Events not yet complete: history points at their live records. */
  live: number;
  summarized: number;
  /** Estimated bytes of the payloads and results kept whole. */
  bytes: number;
  limits: HistoryLimits;
}

interface Slot {
  /** The live record, until the event completes; then history lets go of it. */
  record: EventRecord | undefined;
  /** What `find` matches: the event as emitted, or with its payload summarised. */
  event: BusEvent;
  /** The event as history keeps it once complete. */
  view: EventRecordView | undefined;
  /** Estimated bytes of what this event keeps whole (0 while live and once summarised). */
  bytes: number;
}

interface Waiter {
  type: string;
  where: ((event: BusEvent) => boolean) | undefined;
  resolve: (event: BusEvent | undefined) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The bus's recent events, oldest dropped first, with past-and-future `find`. Bounded twice: in count,
 * and in the bytes of whole payloads and results. Every kept event keeps its lineage (id, parent, child
 * ids, source), timing and each handler's status, duration and error; a large payload or result is
 * replaced by a summary (its small fields and a size note per field left out) when the event completes
 * over `maxEventBytes`, or later, oldest first, when the total passes `maxBytes`. History never changes
 * a record: a caller awaiting a handle reads the full result from the record itself, and history keeps
 * its own view once the event is complete, so the record (and its children) can be collected.
 */
export class EventHistory {
  #limits: HistoryLimits;
  #slots: Slot[] = [];
  readonly #live = new Map<EventRecord, Slot>();
  #bytes = 0;
  #summarized = 0;
  #waiters: Waiter[] = [];

  constructor(limits: Partial<HistoryLimits> = {}) {
    this.#limits = normalise({ ...DEFAULT_HISTORY_LIMITS, ...limits });
  }

  get limits(): HistoryLimits {
    return this.#limits;
  }

  /** Applies new limits at once: the oldest events and details over them go. */
  setLimits(limits: Partial<HistoryLimits>): void {
    this.#limits = normalise({ ...this.#limits, ...limits });
    this.#evictOverCount();
    this.#fitBudget();
  }

  add(record: EventRecord): void {
    const slot: Slot = { record, event: record.event, view: undefined, bytes: 0 };
    this.#slots.push(slot);
    this.#live.set(record, slot);
    this.#evictOverCount();
  }

  /** The event completed: history keeps its view (summarised when large) instead of the record. */
  settle(record: EventRecord): void {
    const slot = this.#live.get(record);
    if (slot === undefined) {
      return;
    }
    this.#live.delete(record);
    slot.record = undefined;
    const view = viewOfRecord(record);
    const limit = this.#limits.maxEventBytes;
    const bytes = detailBytes(view, limit);
    if (bytes > limit) {
      this.#summarize(slot, view);
      return;
    }
    slot.view = view;
    slot.bytes = bytes;
    this.#bytes += bytes;
    this.#fitBudget();
  }

  /** The last `limit` events (all by default), oldest first. */
  views(limit = Infinity): EventRecordView[] {
    const from = Math.max(0, this.#slots.length - limit);
    const out: EventRecordView[] = [];
    for (let index = from; index < this.#slots.length; index++) {
      const slot = this.#slots[index] as Slot;
      out.push(slot.view ?? viewOfRecord(slot.record as EventRecord));
    }
    return out;
  }

  stats(): HistoryStats {
    return {
      events: this.#slots.length,
      live: this.#live.size,
      summarized: this.#summarized,
      bytes: this.#bytes,
      limits: { ...this.#limits },
    };
  }

  find<D extends AnyEventDefinition>(definition: D, options: FindOptions<D>): Promise<BusEvent<D> | undefined> {
    const where = options.where as ((event: BusEvent) => boolean) | undefined;
    const past = options.past ?? true;
    if (past !== false) {
      const since = typeof past === 'number' ? Date.now() - past : -Infinity;
      for (let index = this.#slots.length - 1; index >= 0; index--) {
        const event = (this.#slots[index] as Slot).event;
        if (event.meta.createdAt < since) {
          continue;
        }
        if (event.type === definition.type && (where === undefined || where(event))) {
          return Promise.resolve(event as BusEvent<D>);
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

  #evictOverCount(): void {
    const over = this.#slots.length - this.#limits.maxEvents;
    if (over <= 0) {
      return;
    }
    for (const slot of this.#slots.splice(0, over)) {
      if (slot.record !== undefined) {
        this.#live.delete(slot.record);
      }
      if (slot.view?.summarized === true) {
        this.#summarized--;
      }
      this.#bytes -= slot.bytes;
    }
  }

  /** Summarises the oldest whole events until the rest fit in `maxBytes`. */
  #fitBudget(): void {
    for (let index = 0; this.#bytes > this.#limits.maxBytes && index < this.#slots.length; index++) {
      const slot = this.#slots[index] as Slot;
      if (slot.view !== undefined && slot.bytes > 0) {
        this.#summarize(slot, slot.view);
      }
    }
  }

  #summarize(slot: Slot, view: EventRecordView): void {
    this.#bytes -= slot.bytes;
    slot.bytes = 0;
    const payload = isSmall(view.payload) ? view.payload : summarize(view.payload);
    slot.view = {
      ...view,
      payload,
      summarized: true,
      handlers: view.handlers.map((run) =>
        run.result === undefined || isSmall(run.result) ? run : { ...run, result: summarize(run.result) },
      ),
    };
    if (payload !== view.payload) {
      slot.event = { ...slot.event, payload } as BusEvent;
    }
    this.#summarized++;
  }
}

function isSmall(value: unknown): boolean {
  return estimateJsonBytes(value, SMALL_PART_BYTES) <= SMALL_PART_BYTES;
}

/** The bytes of an event's payload and results, counted only up to just past `limit`. */
function detailBytes(view: EventRecordView, limit: number): number {
  let bytes = estimateJsonBytes(view.payload, limit);
  for (const run of view.handlers) {
    if (bytes > limit) {
      break;
    }
    if (run.result !== undefined) {
      bytes += estimateJsonBytes(run.result, limit - bytes);
    }
  }
  return bytes;
}

function normalise(limits: HistoryLimits): HistoryLimits {
  return {
    maxEvents: Math.max(1, Math.floor(limits.maxEvents)),
    maxBytes: Math.max(0, limits.maxBytes),
    maxEventBytes: Math.max(0, Math.min(limits.maxEventBytes, limits.maxBytes)),
  };
}
