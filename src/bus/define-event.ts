import { z } from 'zod';
import { uuid7 } from '../shared/ids';
import { EventValidationError } from './errors';

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
  description?: string;
}

export interface EventMeta {
  readonly id: string;
  readonly parentId: string | undefined;
  readonly createdAt: number;
}

export interface EventDefinition<
  N extends string = string,
  P extends z.ZodObject = z.ZodObject,
  R extends z.ZodType = z.ZodType,
> {
  readonly type: N;
  readonly payloadSchema: P;
  readonly resultSchema: R;
  readonly timeoutMs: number;
  readonly lifecycle: boolean;
  readonly description: string;
  /** True when the result schema accepts undefined (a void event). */
  readonly resultOptional: boolean;
  /** Validates the payload (throws EventValidationError naming the field) and stamps the meta. */
  create(payload: z.input<P>, meta?: { parentId?: string | undefined }): BusEvent<EventDefinition<N, P, R>>;
  /** Builds the event without validation, for buses running with validation off. */
  createUnchecked(payload: z.input<P>, meta?: { parentId?: string | undefined }): BusEvent<EventDefinition<N, P, R>>;
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

export function defineEvent<N extends string, S extends z.core.$ZodLooseShape, R extends z.ZodType>(
  type: N,
  spec: EventSpec<S, R>,
): EventDefinition<N, z.ZodObject<z.core.util.Writeable<S>, z.core.$strict>, R> {
  const payloadSchema = z.strictObject(spec.payload);
  type P = typeof payloadSchema;
  const build = (payload: unknown, meta?: { parentId?: string | undefined }): BusEvent<EventDefinition<N, P, R>> => ({
    type,
    payload: payload as PayloadOf<EventDefinition<N, P, R>>,
    meta: { id: uuid7(), parentId: meta?.parentId, createdAt: Date.now() },
  });
  return {
    type,
    payloadSchema,
    resultSchema: spec.result,
    timeoutMs: spec.timeoutMs,
    lifecycle: spec.lifecycle ?? false,
    description: spec.description ?? '',
    resultOptional: spec.result.safeParse(undefined).success,
    create(payload, meta) {
      const parsed = payloadSchema.safeParse(payload);
      if (!parsed.success) {
        throw validationError(type, parsed.error);
      }
      return build(parsed.data, meta);
    },
    createUnchecked(payload, meta) {
      return build(payload, meta);
    },
  };
}

/** Turns a zod error into one message that names the first offending field. */
export function validationError(eventType: string, error: z.ZodError): EventValidationError {
  const issue = error.issues[0];
  if (issue === undefined) {
    return new EventValidationError(eventType, '', error.message, []);
  }
  let field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.join(', ');
    field = field === '' ? keys : `${field}.${keys}`;
    return new EventValidationError(eventType, field, `unknown field(s) not allowed`, error.issues);
  }
  return new EventValidationError(eventType, field, issue.message, error.issues);
}
