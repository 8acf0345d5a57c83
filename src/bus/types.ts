import type { AnyEventDefinition, BusEvent, PayloadInputOf, ResultOf } from '../protocol/define-event';
import type { EventHandle } from './event-handle';
import type { EventRecord } from './event-record';

export type Handler<D extends AnyEventDefinition> = (
  event: BusEvent<D>,
  ctx: HandlerContext,
) => ResultOf<D> | undefined | void | Promise<ResultOf<D> | undefined | void>;

/** What a handler may do besides its own work: emit children (lineage stamped) and watch its deadline. */
export interface HandlerContext {
  readonly handlerName: string;
  readonly event: BusEvent;
  /** Aborts when the handler's timeout expires, so long CDP work can stop early. */
  readonly signal: AbortSignal;
  /** How many events emitting this one cancelled (only an event emitted with `preempt` cancels any). */
  readonly preempted: number;
  /**
   * Emits a child event whose parent is the current event. Awaiting the returned handle while this
   * handler is still running processes the child at once (queue jump), so nested awaits never deadlock.
   */
  emit<D extends AnyEventDefinition>(definition: D, payload: PayloadInputOf<D>): EventHandle<D>;
}

export interface HandlerInvocation {
  readonly event: BusEvent;
  readonly definition: AnyEventDefinition;
  readonly handlerName: string;
  readonly signal: AbortSignal;
}

/** Cross-cutting behaviour around every handler call (circuit breaker, timing logs). */
export type BusMiddleware = (invocation: HandlerInvocation, next: () => Promise<unknown>) => Promise<unknown>;

export type BusChange = { phase: 'emitted' | 'started' | 'completed'; record: EventRecord };
export type BusObserver = (change: BusChange) => void;
