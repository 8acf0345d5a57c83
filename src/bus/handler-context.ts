import type { AnyEventDefinition, BusEvent, PayloadInputOf } from '../protocol/define-event';
import type { EventHandle } from './event-handle';
import type { EventRecord, HandlerRun } from './event-record';
import type { HandlerContext, HandlerInvocation } from './types';

/** The bus as a handler context needs it: emitting a child under the current event. */
export interface ChildEmitter {
  emitChild<D extends AnyEventDefinition>(
    definition: D,
    payload: PayloadInputOf<D>,
    parent: EventRecord,
    parentRun: HandlerRun,
  ): EventHandle<D>;
}

/** The `ctx` a handler gets: its event, its deadline signal, and `emit` that stamps lineage. */
export class Context implements HandlerContext {
  readonly handlerName: string;
  readonly #bus: ChildEmitter;
  readonly #record: EventRecord;
  readonly #run: HandlerRun;

  constructor(bus: ChildEmitter, record: EventRecord, run: HandlerRun, handlerName: string) {
    this.#bus = bus;
    this.#record = record;
    this.#run = run;
    this.handlerName = handlerName;
  }

  get event(): BusEvent {
    return this.#record.event;
  }

  get signal(): AbortSignal {
    // Created on first use: most handlers never look at it, and an AbortController per run is not free.
    this.#run.abort ??= new AbortController();
    return this.#run.abort.signal;
  }

  get preempted(): number {
    return this.#record.preempted;
  }

  abort(reason: Error): void {
    this.#run.abort ??= new AbortController();
    this.#run.abort.abort(reason);
  }

  emit<D extends AnyEventDefinition>(definition: D, payload: PayloadInputOf<D>): EventHandle<D> {
    return this.#bus.emitChild(definition, payload, this.#record, this.#run);
  }
}

/** What middleware sees of one handler call. */
export class Invocation implements HandlerInvocation {
  readonly event: BusEvent;
  readonly definition: AnyEventDefinition;
  readonly handlerName: string;
  readonly #context: Context;

  constructor(record: EventRecord, handlerName: string, context: Context) {
    this.event = record.event;
    this.definition = record.definition;
    this.handlerName = handlerName;
    this.#context = context;
  }

  get signal(): AbortSignal {
    return this.#context.signal;
  }
}
