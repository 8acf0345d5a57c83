import { errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { silentLogger } from '../shared/logger';
import type { AnyEventDefinition, BusEvent, PayloadInputOf } from '../protocol/define-event';
import { DeadlineTimer } from './deadline-timer';
import { cancelOnAbort, descendsFrom } from './cancel-on-abort';
import { EventCancelledError, EventDepthError } from './errors';
import { EventHandle, type RecordWaiter } from './event-handle';
import { EventQueue } from './event-queue';
import { EventRecord, firstQueuedDescendant, type EventRecordView, type HandlerRun } from './event-record';
import type { ChildEmitter } from './handler-context';
import { HandlerRegistry, type RegisteredHandler } from './handler-registry';
import { runHandler, type HandlerRunnerDeps } from './handler-runner';
import { EventHistory, type FindOptions, type HistoryLimits, type HistoryStats } from './history';
import type { BusChange, BusMiddleware, BusObserver, Handler } from './types';

export type { BusChange, BusMiddleware, BusObserver, Handler, HandlerContext, HandlerInvocation } from './types';
export { EventHandle } from './event-handle';

export interface EventBusOptions {
  name?: string;
  /** Validate payloads at emit and results at completion (default true). */
  validate?: boolean;
  /** How many events history keeps (the same as `history.maxEvents`). */
  historySize?: number;
  /** What history keeps: how many events, and how many bytes of whole payloads and results. */
  history?: Partial<HistoryLimits>;
  /** Per event type timeout overrides in ms (from the config's `timeouts`). */
  timeouts?: Readonly<Record<string, number>>;
  /** How deep awaited children may nest before the bus calls it a loop. */
  maxDepth?: number;
  logger?: Logger;
}

export interface EmitOptions {
  /** Who caused the event: 'panel', 'cli', 'native:<name>', ... Children inherit it. */
  source?: string;
  /**
   * Cancel every event that is queued or running first (their handlers' signals abort and they fail
   * CANCELLED), so this one never waits behind the work it is meant to stop: the emergency stop.
   */
  preempt?: boolean;
  /**
   * The payload was already parsed by a schema derived from this event's own (an action's params, with
   * the defaults applied): it is not parsed twice.
   */
  prevalidated?: boolean;
  /**
   * Aborting it cancels this event alone and what it started: a queued one fails CANCELLED without
   * running, a running one's handlers are interrupted (their signals abort) and its running descendants
   * with them. A client cancelling its own request, not an emergency stop.
   */
  signal?: AbortSignal;
}

/**
 * The typed event bus (bubus semantics): one FIFO queue per bus, handlers of one event run
 * serially in registration order under the event's timeout, an event completes when its handlers and
 * every child they emitted have completed, and errors are never lost. Buses share nothing, so two
 * sessions never block each other.
 */
export class EventBus implements RecordWaiter, ChildEmitter {
  readonly name: string;
  readonly #validate: boolean;
  readonly #maxDepth: number;
  readonly #log: Logger;
  readonly #handlers = new HandlerRegistry();
  readonly #middleware: BusMiddleware[] = [];
  readonly #observers = new Set<BusObserver>();
  readonly #history: EventHistory;
  #timeouts: Readonly<Record<string, number>>;
  readonly #deadlines = new DeadlineTimer();
  readonly #queue = new EventQueue();
  /** Records whose handlers are running (inline children included): what cancelAll interrupts. */
  readonly #running = new Set<EventRecord>();
  #draining = false;
  #idleWaiters: Array<() => void> = [];
  readonly #runner: HandlerRunnerDeps;

  constructor(options: EventBusOptions = {}) {
    this.name = options.name ?? 'EventBus';
    this.#validate = options.validate ?? true;
    this.#maxDepth = options.maxDepth ?? 32;
    this.#log = options.logger ?? silentLogger;
    this.#timeouts = options.timeouts ?? {};
    this.#history = new EventHistory({
      ...options.history,
      ...(options.historySize === undefined ? {} : { maxEvents: options.historySize }),
    });
    this.#runner = {
      validate: this.#validate,
      middleware: this.#middleware,
      deadlines: this.#deadlines,
      log: this.#log,
      emitter: this,
      cancelQueuedChildren: (run, reason) => this.#cancelQueuedDescendants(run, reason),
    };
  }

  /** Replaces the per-event timeout overrides; applies to events processed from now on. */
  setTimeouts(timeouts: Readonly<Record<string, number>>): void {
    this.#timeouts = timeouts;
  }

  timeoutFor(definition: AnyEventDefinition): number {
    return this.#timeouts[definition.type] ?? definition.timeoutMs;
  }

  /**
   * Registers a handler. Handler names are unique per event: registering the same name twice throws,
   * which catches a watchdog attached twice. Returns a disposer.
   */
  on<D extends AnyEventDefinition>(definition: D, handler: Handler<D>, options: { name: string }): () => void {
    return this.#handlers.add(definition, handler, options.name);
  }

  handlerNames(definition: AnyEventDefinition): string[] {
    return this.#handlers.names(definition);
  }

  use(middleware: BusMiddleware): () => void {
    this.#middleware.push(middleware);
    return () => {
      const index = this.#middleware.indexOf(middleware);
      if (index >= 0) {
        this.#middleware.splice(index, 1);
      }
    };
  }

  /** Observes every event as it is emitted, started and completed (logging, panel, subscriptions). */
  observe(observer: BusObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** Queues an event. Throws EventValidationError (naming the field) for a bad payload. */
  emit<D extends AnyEventDefinition>(
    definition: D,
    payload: PayloadInputOf<D>,
    options: EmitOptions = {},
  ): EventHandle<D> {
    return this.#emit(definition, payload, undefined, undefined, options);
  }

  #emit<D extends AnyEventDefinition>(
    definition: D,
    payload: PayloadInputOf<D>,
    parent: EventRecord | undefined,
    parentRun: HandlerRun | undefined,
    options: EmitOptions,
  ): EventHandle<D> {
    const origin = { parentId: parent?.event.meta.id, source: options.source ?? parent?.source };
    const event =
      this.#validate && options.prevalidated !== true
        ? definition.create(payload, origin)
        : definition.createUnchecked(payload, origin);
    // After validation: a refused payload cancels nothing.
    const preempted = options.preempt === true ? this.cancelAll(`${definition.type} preempted it`) : 0;
    const record = new EventRecord(event, definition, this.timeoutFor(definition), parent, origin.source);
    record.preempted = preempted;
    if (parent !== undefined && parentRun !== undefined) {
      parentRun.children.push(record);
      parent.pendingChildren++;
    }
    this.#history.add(record);
    this.#queue.push(record);
    this.#notify('emitted', record);
    this.#scheduleDrain();
    if (options.signal !== undefined) {
      cancelOnAbort(record, options.signal, (reason) => this.#cancelRecord(record, reason));
    }
    return new EventHandle<D>(this, record, parentRun);
  }

  /** Cancels one event: queued, it fails without running; running, it and its running descendants are interrupted. */
  #cancelRecord(record: EventRecord, reason: string): void {
    if (record.status === 'queued') {
      this.#failWithoutRunning(record, new EventCancelledError(record.event.type, reason), '(cancelled)');
    }
    for (const running of [...this.#running].filter((candidate) => descendsFrom(candidate, record))) {
      running.cancel(new EventCancelledError(running.event.type, reason));
    }
  }

  /** Past events newest first, then (optionally) the next matching event to be emitted. */
  find<D extends AnyEventDefinition>(definition: D, options: FindOptions<D> = {}): Promise<BusEvent<D> | undefined> {
    return this.#history.find(definition, options);
  }

  /** The last `limit` events (all history keeps by default), oldest first. */
  history(limit?: number): EventRecordView[] {
    return this.#history.views(limit);
  }

  historyStats(): HistoryStats {
    return this.#history.stats();
  }

  setHistoryLimits(limits: Partial<HistoryLimits>): void {
    this.#history.setLimits(limits);
  }

  get queuedCount(): number {
    return this.#queue.size;
  }

  /** Resolves once the queue is empty and nothing is being processed. */
  waitUntilIdle(): Promise<void> {
    if (!this.#draining && this.queuedCount === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Fails every event still waiting in the queue with EventCancelledError. Events already running
   * finish on their own. Returns how many were cancelled.
   */
  cancelQueued(reason: string): number {
    let cancelled = 0;
    for (const record of this.#queue.waiting()) {
      if (record.status === 'queued') {
        this.#failWithoutRunning(record, new EventCancelledError(record.event.type, reason), '(cancelled)');
        cancelled++;
      }
    }
    return cancelled;
  }

  /**
   * Cancels everything: the events running now fail at once with EventCancelledError (their handlers'
   * signals abort, so their CDP work stops; the remaining handlers of the event are skipped), then every
   * queued event is failed the same way. Returns how many events were cancelled, running ones included.
   * Emitting with `preempt` does this first.
   */
  cancelAll(reason: string): number {
    let cancelled = 0;
    for (const record of [...this.#running]) {
      if (record.cancel(new EventCancelledError(record.event.type, reason))) {
        cancelled++;
      }
    }
    return cancelled + this.cancelQueued(reason);
  }

  /** Called by EventHandle: waits for the record, processing it inline when a running parent awaits it. */
  awaitRecord(record: EventRecord, awaitingRun: HandlerRun | undefined): Promise<void> {
    if (record.status === 'queued' && awaitingRun?.running === true) {
      return this.#processInline(record).then(() => record.whenComplete());
    }
    return record.whenComplete();
  }

  #scheduleDrain(): void {
    if (this.#draining) {
      return;
    }
    this.#draining = true;
    queueMicrotask(() => {
      void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    try {
      for (;;) {
        const record = this.#queue.next();
        if (record === undefined) {
          break;
        }
        // Synchronous handlers finish without a promise; only wait when one is pending.
        const pending = this.#process(record);
        if (pending !== undefined) {
          await pending;
        }
      }
    } finally {
      this.#draining = false;
      // An emit that landed after the last dequeue but before the flag dropped is picked up here.
      if (this.queuedCount > 0) {
        this.#scheduleDrain();
      } else {
        const waiters = this.#idleWaiters;
        this.#idleWaiters = [];
        for (const resolve of waiters) {
          resolve();
        }
      }
    }
  }

  /** Runs a queued record and then its queued descendants right away, for an awaiting parent handler. */
  async #processInline(record: EventRecord): Promise<void> {
    if (record.depth > this.#maxDepth) {
      this.#failWithoutRunning(record, new EventDepthError(record.event.type, record.depth), '(bus)');
      return;
    }
    await this.#process(record);
    // Children the inline event queued without awaiting must also run now, or its completion (which
    // includes them) would wait behind the parent that is waiting for it.
    for (;;) {
      const next = firstQueuedDescendant(record);
      if (next === undefined) {
        break;
      }
      if (next.depth > this.#maxDepth) {
        this.#failWithoutRunning(next, new EventDepthError(next.event.type, next.depth), '(bus)');
        continue;
      }
      await this.#process(next);
    }
  }

  /** Runs every handler of one event in order; returns a promise only if a handler is still running. */
  #process(record: EventRecord): Promise<void> | undefined {
    record.status = 'started';
    record.startedAt = Date.now();
    this.#running.add(record);
    this.#notify('started', record);
    const handlers = this.#handlers.of(record.event.type);
    for (let index = 0; index < handlers.length; index++) {
      const pending = runHandler(this.#runner, record, handlers[index] as RegisteredHandler);
      if (pending !== undefined) {
        return this.#finishProcess(record, handlers, index + 1, pending);
      }
    }
    this.#handlersDone(record);
    return undefined;
  }

  async #finishProcess(
    record: EventRecord,
    handlers: readonly RegisteredHandler[],
    from: number,
    pending: Promise<void>,
  ): Promise<void> {
    await pending;
    // A cancelled event runs none of its remaining handlers.
    for (let index = from; index < handlers.length && record.cancelledBy === undefined; index++) {
      await runHandler(this.#runner, record, handlers[index] as RegisteredHandler);
    }
    this.#handlersDone(record);
  }

  #handlersDone(record: EventRecord): void {
    this.#running.delete(record);
    record.handlersDone = true;
    this.#maybeComplete(record);
  }

  #cancelQueuedDescendants(run: HandlerRun, reason: string): void {
    for (const child of run.children) {
      if (child.status === 'queued') {
        this.#failWithoutRunning(child, new EventCancelledError(child.event.type, reason), '(cancelled)');
      } else {
        for (const childRun of child.runs) {
          this.#cancelQueuedDescendants(childRun, reason);
        }
      }
    }
  }

  #failWithoutRunning(record: EventRecord, error: Error, name: string): void {
    const now = Date.now();
    record.status = 'started';
    record.startedAt = now;
    record.runs.push({
      name,
      status: 'error',
      result: undefined,
      error,
      startedAt: now,
      completedAt: now,
      children: [],
      running: false,
      abort: undefined,
      interrupt: undefined,
    });
    record.handlersDone = true;
    this.#maybeComplete(record);
  }

  #maybeComplete(record: EventRecord): void {
    if (record.status === 'completed' || !record.handlersDone || record.pendingChildren > 0) {
      return;
    }
    record.markCompleted(Date.now());
    this.#notify('completed', record);
    this.#history.settle(record);
    const parent = record.parent;
    if (parent !== undefined) {
      parent.pendingChildren--;
      this.#maybeComplete(parent);
    }
  }

  #notify(phase: BusChange['phase'], record: EventRecord): void {
    if (phase === 'emitted') {
      this.#history.resolveWaiters(record);
    }
    if (this.#observers.size === 0) {
      return;
    }
    for (const observer of this.#observers) {
      try {
        observer({ phase, record });
      } catch (error) {
        this.#log.warn('bus observer failed', { error: errorMessageOf(error) });
      }
    }
  }

  /** Internal to Context: emits with lineage. */
  emitChild<D extends AnyEventDefinition>(
    definition: D,
    payload: PayloadInputOf<D>,
    parent: EventRecord,
    parentRun: HandlerRun,
  ): EventHandle<D> {
    return this.#emit(definition, payload, parent, parentRun, {});
  }
}
