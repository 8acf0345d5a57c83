import { errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import type { DeadlineTimer } from './deadline-timer';
import { validateResult } from '../protocol/define-event';
import { EventCancelledError, EventHandlerTimeoutError } from './errors';
import { isPromiseLike, type EventRecord, type HandlerRun } from './event-record';
import { Context, Invocation, type ChildEmitter } from './handler-context';
import type { RegisteredHandler } from './handler-registry';
import type { BusMiddleware } from './types';

/**
 * One handler call of an event: its run record, the middleware chain in front of it, its deadline,
 * the check of its result against the event's schema, and what a timeout or cancellation does to the
 * children it queued. The bus decides which handlers run and when; this runs one.
 */
export interface HandlerRunnerDeps {
  readonly validate: boolean;
  /** The bus's middleware, in order (the bus adds and removes entries in place). */
  readonly middleware: readonly BusMiddleware[];
  readonly deadlines: DeadlineTimer;
  readonly log: Logger;
  readonly emitter: ChildEmitter;
  /** A run that timed out or was cancelled: the children it queued must not run. */
  cancelQueuedChildren(run: HandlerRun, reason: string): void;
}

/** Calls one handler; a synchronous handler is settled at once, an async one under its deadline. */
export function runHandler(
  deps: HandlerRunnerDeps,
  record: EventRecord,
  handler: RegisteredHandler,
): Promise<void> | undefined {
  const run: HandlerRun = {
    name: handler.name,
    status: 'started',
    result: undefined,
    error: undefined,
    startedAt: Date.now(),
    completedAt: undefined,
    children: [],
    running: true,
    abort: undefined,
    interrupt: undefined,
  };
  record.runs.push(run);
  const context = new Context(deps.emitter, record, run, handler.name);
  let output: unknown;
  try {
    output =
      deps.middleware.length === 0
        ? handler.fn(record.event, context)
        : invokeWithMiddleware(deps, record, handler, context);
  } catch (error) {
    settleRun(deps, record, run, context, undefined, error);
    return undefined;
  }
  if (!isPromiseLike(output)) {
    settleRun(deps, record, run, context, output, undefined);
    return undefined;
  }
  // cancelAll settles the run at once through `interrupt`; the handler's own promise is left to its signal.
  const interrupted = new Promise<never>((_resolve, reject) => {
    run.interrupt = reject;
  });
  return deps.deadlines
    .race(
      Promise.race([Promise.resolve(output), interrupted]),
      record.timeoutMs,
      () => new EventHandlerTimeoutError(record.event.type, handler.name, record.timeoutMs),
    )
    .then(
      (value) => settleRun(deps, record, run, context, value, undefined),
      (error: unknown) => settleRun(deps, record, run, context, undefined, error ?? new Error('handler rejected')),
    );
}

function settleRun(
  deps: HandlerRunnerDeps,
  record: EventRecord,
  run: HandlerRun,
  context: Context,
  output: unknown,
  error: unknown,
): void {
  if (error === undefined) {
    try {
      run.result = deps.validate ? validateResult(record.definition, run.name, output) : output;
      run.status = 'completed';
    } catch (validation) {
      error = validation;
    }
  }
  if (error !== undefined) {
    run.status = 'error';
    run.error = error;
    if (error instanceof EventHandlerTimeoutError || error instanceof EventCancelledError) {
      context.abort(error);
      deps.cancelQueuedChildren(
        run,
        error instanceof EventCancelledError ? error.message : `parent handler ${run.name} timed out`,
      );
    }
    deps.log.debug('handler failed', {
      event: record.event.type,
      handler: run.name,
      error: errorMessageOf(error),
    });
  }
  run.running = false;
  run.interrupt = undefined;
  run.completedAt = Date.now();
}

function invokeWithMiddleware(
  deps: HandlerRunnerDeps,
  record: EventRecord,
  handler: RegisteredHandler,
  context: Context,
): Promise<unknown> {
  const invocation = new Invocation(record, handler.name, context);
  const chain = deps.middleware;
  const call = (index: number): Promise<unknown> => {
    const middleware = chain[index];
    if (middleware === undefined) {
      return Promise.resolve(handler.fn(record.event, context));
    }
    return middleware(invocation, () => call(index + 1));
  };
  return call(0);
}
