import { z } from 'zod';
import { uuid7 } from '../shared/ids';
import { firstProblem } from '../shared/zod-issues';
import { EventValidationError } from './event-validation-error';

/**
 * An event definition: the name literal (written out, never derived from a class name), a strict payload
 * schema (unknown keys are refused, as pydantic's extra='forbid'), a result schema and a default timeout.
 */
export interface EventSpec<S extends z.core.$ZodLooseShape, R extends z.ZodType> {
  payload: S;
  result: R;
  timeoutMs: number;
  /** Lifecycle events run even while CDP is disconnected (the circuit breaker lets them through). */
  lifecycle?: boolean;
  /** Cross-field rules of the payload (one of two fields, both or neither), reported like field errors. */
  refine?: (payload: z.output<z.ZodObject<z.core.util.Writeable<S>, z.core.$strict>>, ctx: z.RefinementCtx) => void;
  description?: string;
}

export interface EventMeta {
  readonly id: string;
  readonly parentId: string | undefined;
  readonly createdAt: number;
  /** Who caused the event (`panel`, `native:<name>`, `actor`, ...); children inherit their parent's. */
  readonly source: string | undefined;
}

/** What the bus stamps on an event when it is created. */
export interface EventOrigin {
  parentId?: string | undefined;
  source?: string | undefined;
}

export interface EventDefinition<
  N extends string = string,
  P extends z.ZodObject = z.ZodObject,
  R extends z.ZodType = z.ZodType,
> {
  readonly type: N;
  /** The payload schema, refinements included: what `create` validates. */
  readonly payloadSchema: z.ZodType<z.output<P>, z.input<P>>;
  /** The payload's fields without the refinements, for schemas derived from it (an action's params). */
  readonly payloadShape: P;
  readonly refine: ((payload: z.output<P>, ctx: z.RefinementCtx) => void) | undefined;
  readonly resultSchema: R;
  readonly timeoutMs: number;
  readonly lifecycle: boolean;
  readonly description: string;
  /** True when the result schema accepts undefined (a void event). */
  readonly resultOptional: boolean;
  /** Validates the payload (throws EventValidationError naming the field) and stamps the meta. */
  create(payload: z.input<P>, origin?: EventOrigin): BusEvent<EventDefinition<N, P, R>>;
  /** Builds the event without validation, for buses running with validation off. */
  createUnchecked(payload: z.input<P>, origin?: EventOrigin): BusEvent<EventDefinition<N, P, R>>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the widest definition type; payloads are checked per definition
export type AnyEventDefinition = EventDefinition<string, any, any>;

export type PayloadOf<D> = D extends EventDefinition<string, infer P, z.ZodType> ? z.output<P> : never;
export type PayloadInputOf<D> = D extends EventDefinition<string, infer P, z.ZodType> ? z.input<P> : never;
export type ResultOf<D> = D extends EventDefinition<string, z.ZodObject, infer R> ? z.output<R> : never;

export interface BusEvent<D extends AnyEventDefinition = AnyEventDefinition> {
  readonly type: D['type'];
  readonly payload: PayloadOf<D>;
  readonly meta: EventMeta;
}

/** Whether `event` is one of `definition`'s, its payload typed by it (the bus validated it against the schema). */
export function isEventOf<D extends AnyEventDefinition>(event: BusEvent, definition: D): event is BusEvent<D> {
  return event.type === definition.type;
}

export function defineEvent<N extends string, S extends z.core.$ZodLooseShape, R extends z.ZodType>(
  type: N,
  spec: EventSpec<S, R>,
): EventDefinition<N, z.ZodObject<z.core.util.Writeable<S>, z.core.$strict>, R> {
  const payloadShape = z.strictObject(spec.payload);
  type P = typeof payloadShape;
  const payloadSchema = spec.refine === undefined ? payloadShape : payloadShape.superRefine(spec.refine);
  const build = (payload: unknown, origin?: EventOrigin): BusEvent<EventDefinition<N, P, R>> => ({
    type,
    payload: payload as PayloadOf<EventDefinition<N, P, R>>,
    meta: { id: uuid7(), parentId: origin?.parentId, createdAt: Date.now(), source: origin?.source },
  });
  return {
    type,
    payloadSchema,
    payloadShape,
    refine: spec.refine,
    resultSchema: spec.result,
    timeoutMs: spec.timeoutMs,
    lifecycle: spec.lifecycle ?? false,
    description: spec.description ?? '',
    resultOptional: spec.result.safeParse(undefined).success,
    create(payload, origin) {
      const parsed = payloadSchema.safeParse(payload);
      if (!parsed.success) {
        throw validationError(type, parsed.error);
      }
      return build(parsed.data, origin);
    },
    createUnchecked(payload, origin) {
      return build(payload, origin);
    },
  };
}

/** Turns a zod error into one message that names the first offending field. */
export function validationError(eventType: string, error: z.ZodError): EventValidationError {
  const { field, message } = firstProblem(error);
  return new EventValidationError(eventType, field, message, error.issues);
}

/** A handler's output checked against the event's result schema (undefined: the handler gave none). */
export function validateResult(definition: AnyEventDefinition, handlerName: string, output: unknown): unknown {
  if (output === undefined) {
    return output;
  }
  const parsed = (definition.resultSchema as z.ZodType).safeParse(output);
  if (!parsed.success) {
    throw validationError(`${definition.type} result from ${handlerName}`, parsed.error);
  }
  return parsed.data;
}
