import { errorCodeOf, errorMessageOf } from '../shared/errors';
import type { AnyEventDefinition, BusEvent } from '../protocol/define-event';

export type EventStatus = 'queued' | 'started' | 'completed';
export type HandlerStatus = 'started' | 'completed' | 'error';

/** One handler's run for one event. `running` is true only while the handler function executes. */
export interface HandlerRun {
  readonly name: string;
  status: HandlerStatus;
  result: unknown;
  error: unknown;
  readonly startedAt: number;
  completedAt: number | undefined;
  readonly children: EventRecord[];
  running: boolean;
  abort: AbortController | undefined;
  /** Set while an async handler runs: settles the run at once with the given error (cancelAll). */
  interrupt: ((error: Error) => void) | undefined;
}

/** The bus's bookkeeping for one event: its runs, its children, its completion. */
export class EventRecord {
  readonly event: BusEvent;
  readonly definition: AnyEventDefinition;
  readonly parent: EventRecord | undefined;
  readonly depth: number;
  readonly timeoutMs: number;
  readonly runs: HandlerRun[] = [];
  status: EventStatus = 'queued';
  startedAt: number | undefined;
  completedAt: number | undefined;
  handlersDone = false;
  pendingChildren = 0;
  /** Set once cancelAll interrupted this event: its remaining handlers do not run. */
  cancelledBy: Error | undefined;
  /** How many events emitting this one cancelled (emitted with `preempt`); 0 otherwise. */
  preempted = 0;
  /** The client or component that caused the event (panel, cli, native, ...), copied to children. */
  readonly source: string | undefined;

  constructor(
    event: BusEvent,
    definition: AnyEventDefinition,
    timeoutMs: number,
    parent: EventRecord | undefined,
    source: string | undefined,
  ) {
    this.event = event;
    this.definition = definition;
    this.timeoutMs = timeoutMs;
    this.parent = parent;
    this.depth = parent === undefined ? 0 : parent.depth + 1;
    this.source = source ?? parent?.source;
  }

  #completion: Promise<void> | undefined;
  #resolveCompletion: (() => void) | undefined;

  /**
   * Interrupts the running handler with `error` and skips the rest. False when nothing was running
   * (a synchronous handler, or one already settled).
   */
  cancel(error: Error): boolean {
    if (this.cancelledBy !== undefined || this.handlersDone) {
      return false;
    }
    this.cancelledBy = error;
    for (const run of this.runs) {
      run.interrupt?.(error);
    }
    return true;
  }

  get failed(): boolean {
    return this.runs.some((run) => run.status === 'error');
  }

  /** Resolves when the event is complete. Made on first use: most notifications are never awaited. */
  whenComplete(): Promise<void> {
    if (this.status === 'completed') {
      return Promise.resolve();
    }
    this.#completion ??= new Promise<void>((resolve) => {
      this.#resolveCompletion = resolve;
    });
    return this.#completion;
  }

  markCompleted(now: number): void {
    this.status = 'completed';
    this.completedAt = now;
    this.#resolveCompletion?.();
  }
}

export interface HandlerResultView {
  handler: string;
  status: HandlerStatus;
  result?: unknown;
  error?: { code: string; message: string };
  duration_ms?: number;
  child_ids: string[];
}

/** A serialisable snapshot of an event record, as history, observers and the timeline see it. */
export interface EventRecordView {
  id: string;
  type: string;
  parent_id: string | undefined;
  source: string | undefined;
  payload: unknown;
  status: EventStatus;
  created_at: number;
  started_at: number | undefined;
  completed_at: number | undefined;
  handlers: HandlerResultView[];
  /** Set by history when it kept only a summary of a large payload or result (see bus/summary.ts). */
  summarized?: boolean;
}

export function viewOfRun(run: HandlerRun): HandlerResultView {
  const view: HandlerResultView = {
    handler: run.name,
    status: run.status,
    child_ids: run.children.map((child) => child.event.meta.id),
  };
  if (run.status === 'completed' && run.result !== undefined) {
    view.result = run.result;
  }
  if (run.status === 'error') {
    view.error = { code: errorCodeOf(run.error), message: errorMessageOf(run.error) };
  }
  if (run.completedAt !== undefined) {
    view.duration_ms = run.completedAt - run.startedAt;
  }
  return view;
}

export function viewOfRecord(record: EventRecord): EventRecordView {
  return {
    id: record.event.meta.id,
    type: record.event.type,
    parent_id: record.event.meta.parentId,
    source: record.source,
    payload: record.event.payload,
    status: record.status,
    created_at: record.event.meta.createdAt,
    started_at: record.startedAt,
    completed_at: record.completedAt,
    handlers: record.runs.map(viewOfRun),
  };
}

/** The first descendant still waiting in the queue, depth first (what an inline event must run next). */
export function firstQueuedDescendant(record: EventRecord): EventRecord | undefined {
  for (const run of record.runs) {
    for (const child of run.children) {
      if (child.status === 'queued') {
        return child;
      }
      const nested = firstQueuedDescendant(child);
      if (nested !== undefined) {
        return nested;
      }
    }
  }
  return undefined;
}

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
