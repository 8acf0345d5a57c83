import type { AnyEventDefinition, BusEvent, ResultOf } from '../protocol/define-event';
import { EventNoResultError } from './errors';
import {
  viewOfRecord,
  viewOfRun,
  type EventRecord,
  type EventRecordView,
  type HandlerResultView,
  type HandlerRun,
} from './event-record';

/** The bus as a handle needs it: waiting for a record, processing it inline for an awaiting parent. */
export interface RecordWaiter {
  awaitRecord(record: EventRecord, awaitingRun: HandlerRun | undefined): Promise<void>;
}

/**
 * The awaitable result of `emit`. `await handle` (or `result()`) resolves to the first validated result
 * and rejects with the first handler error: a failed event never looks like a success.
 */
export class EventHandle<D extends AnyEventDefinition> implements PromiseLike<ResultOf<D> | undefined> {
  readonly #bus: RecordWaiter;
  readonly #record: EventRecord;
  readonly #awaitingRun: HandlerRun | undefined;

  constructor(bus: RecordWaiter, record: EventRecord, awaitingRun: HandlerRun | undefined) {
    this.#bus = bus;
    this.#record = record;
    this.#awaitingRun = awaitingRun;
  }

  get event(): BusEvent<D> {
    return this.#record.event as BusEvent<D>;
  }

  get id(): string {
    return this.#record.event.meta.id;
  }

  get status(): EventRecord['status'] {
    return this.#record.status;
  }

  /** Waits for completion (children included) without throwing. */
  async done(): Promise<EventRecordView> {
    await this.#bus.awaitRecord(this.#record, this.#awaitingRun);
    return viewOfRecord(this.#record);
  }

  async result(): Promise<ResultOf<D> | undefined> {
    await this.#bus.awaitRecord(this.#record, this.#awaitingRun);
    const runs = this.#record.runs;
    for (const run of runs) {
      if (run.status === 'error') {
        throw run.error;
      }
    }
    for (const run of runs) {
      if (run.result !== undefined) {
        return run.result as ResultOf<D>;
      }
    }
    if (!this.#record.definition.resultOptional) {
      throw new EventNoResultError(this.#record.event.type, runs.length);
    }
    return undefined;
  }

  async results(): Promise<HandlerResultView[]> {
    await this.#bus.awaitRecord(this.#record, this.#awaitingRun);
    return this.#record.runs.map(viewOfRun);
  }

  then<A = ResultOf<D> | undefined, B = never>(
    onFulfilled?: ((value: ResultOf<D> | undefined) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.result().then(onFulfilled, onRejected);
  }
}
