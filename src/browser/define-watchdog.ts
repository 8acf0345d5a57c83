import type { AnyEventDefinition, BusEvent, PayloadInputOf, ResultOf } from '../protocol/define-event';
import type { EventBus, EventHandle, HandlerContext } from '../bus/event-bus';
import type { Logger } from '../shared/logger';
import type { BrowserConfig } from './config';
import type { BrowserSessionView } from './session-view';

type Emitter<E extends readonly AnyEventDefinition[]> = <D extends E[number]>(
  definition: D,
  payload: PayloadInputOf<D>,
) => EventHandle<D>;

/** Everything a watchdog may touch; there is no back door to other watchdogs. */
export interface WatchdogContext<E extends readonly AnyEventDefinition[]> {
  readonly name: string;
  readonly session: BrowserSessionView;
  readonly log: Logger;
  /** Aborts when the watchdog is detached; every listener and timer hangs off it. */
  readonly signal: AbortSignal;
  /** Emits a root event; only events the watchdog declared in `emits` compile. */
  readonly emit: Emitter<E>;
}

/** Per-call context: `emit` stamps the handled event as parent; `signal` aborts on the handler timeout. */
export interface WatchdogHandlerContext<E extends readonly AnyEventDefinition[]> {
  readonly signal: AbortSignal;
  /** How many events emitting this one cancelled (only one emitted with `preempt`, the emergency stop, cancels any). */
  readonly preempted: number;
  readonly emit: Emitter<E>;
}

export type WatchdogHandler<D extends AnyEventDefinition, E extends readonly AnyEventDefinition[]> = (
  event: BusEvent<D>,
  ctx: WatchdogHandlerContext<E>,
) => ResultOf<D> | undefined | void | Promise<ResultOf<D> | undefined | void>;

/** Exactly one handler per listened event, keyed by its name: a missing or extra one is a compile error. */
export type HandlersFor<L extends readonly AnyEventDefinition[], E extends readonly AnyEventDefinition[]> = {
  [K in L[number]['type']]: WatchdogHandler<Extract<L[number], { readonly type: K }>, E>;
};

export interface Watchdog<L extends readonly AnyEventDefinition[], E extends readonly AnyEventDefinition[]> {
  /** kebab-case, used in handler names and logs. */
  readonly name: string;
  readonly listensTo: L;
  readonly emits: E;
  /** Attached only while this says so; the session re-checks it whenever the config changes. Default: always. */
  readonly enabled?: (config: BrowserConfig) => boolean;
  setup(ctx: WatchdogContext<E>): HandlersFor<L, E>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of watchdogs of any event tuples
export type AnyWatchdog = Watchdog<any, any>;

export function defineWatchdog<
  const L extends readonly AnyEventDefinition[],
  const E extends readonly AnyEventDefinition[],
>(spec: {
  name: string;
  listensTo: L;
  emits: E;
  enabled?: (config: BrowserConfig) => boolean;
  // NoInfer: L and E come from the two tuples alone, so setup's handlers are contextually typed.
  setup: (ctx: WatchdogContext<NoInfer<E>>) => HandlersFor<NoInfer<L>, NoInfer<E>>;
}): Watchdog<L, E> {
  return spec;
}

/**
 * Registers a watchdog's handlers on the session's bus in `listensTo` order. The handler of
 * `TabCreatedEvent` in watchdog `popups` is named `popups.on_TabCreatedEvent`; attaching the same
 * watchdog twice throws (the bus refuses the duplicate name). Returns the detach function.
 */
export function attachWatchdog(
  bus: EventBus,
  session: BrowserSessionView,
  watchdog: AnyWatchdog,
  log: Logger,
): () => void {
  const controller = new AbortController();
  const declared = new Set<string>(
    (watchdog.emits as readonly AnyEventDefinition[]).map((definition) => definition.type),
  );
  const guard = (definition: AnyEventDefinition): void => {
    if (!declared.has(definition.type)) {
      throw new Error(`watchdog ${watchdog.name} emitted ${definition.type}, which it did not declare`);
    }
  };
  const context: WatchdogContext<readonly AnyEventDefinition[]> = {
    name: watchdog.name,
    session,
    log: log.child(watchdog.name),
    signal: controller.signal,
    emit: (definition, payload) => {
      guard(definition);
      return bus.emit(definition, payload, { source: watchdog.name });
    },
  };
  const handlers = watchdog.setup(context) as Record<
    string,
    WatchdogHandler<AnyEventDefinition, readonly AnyEventDefinition[]>
  >;
  const listened = new Set((watchdog.listensTo as readonly AnyEventDefinition[]).map((definition) => definition.type));
  const stray = Object.keys(handlers).filter((type) => !listened.has(type));
  if (stray.length > 0) {
    throw new Error(`watchdog ${watchdog.name} has handlers for ${stray.join(', ')}, which it does not listen to`);
  }
  const disposers: Array<() => void> = [];
  try {
    for (const definition of watchdog.listensTo as readonly AnyEventDefinition[]) {
      const handler = handlers[definition.type];
      if (handler === undefined) {
        throw new Error(`watchdog ${watchdog.name} listens to ${definition.type} but has no handler for it`);
      }
      disposers.push(
        bus.on(
          definition,
          (event, ctx: HandlerContext): unknown =>
            handler(event, {
              get signal() {
                return ctx.signal;
              },
              get preempted() {
                return ctx.preempted;
              },
              emit: (child, payload) => {
                guard(child);
                return ctx.emit(child, payload);
              },
            }),
          { name: `${watchdog.name}.on_${definition.type}` },
        ),
      );
    }
  } catch (error) {
    for (const dispose of disposers) {
      dispose();
    }
    throw error;
  }
  return () => {
    controller.abort(new Error(`watchdog ${watchdog.name} detached`));
    for (const dispose of disposers) {
      dispose();
    }
  };
}
