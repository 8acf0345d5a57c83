/**
 * Type guards for values that arrive from outside (JSON, messages, storage, thrown errors), so the code
 * that reads them narrows with a check instead of asserting a shape with a cast.
 */

/** A non-null object that is not an array: a JSON object, a message, a record from storage. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` is one of `values`, narrowed to their union (a name read from the environment, a flag). */
export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return values.some((candidate) => candidate === value);
}

/** The field `key` of `value` when it is an object (arrays included), undefined otherwise. */
export function fieldOf(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  const field: unknown = Reflect.get(value, key);
  return field;
}

/** The field `key` of `value` when it is a string, undefined otherwise (an action's params, an answer's row). */
export function stringFieldOf(value: unknown, key: string): string | undefined {
  const field = fieldOf(value, key);
  return typeof field === 'string' ? field : undefined;
}

/**
 * `value` with `fields` set, when it is an object or absent (a config section the command line adds to);
 * any other value is returned as it is, for the config's own check to report.
 */
export function withFields(value: unknown, fields: Record<string, unknown>): unknown {
  if (value === undefined) {
    return { ...fields };
  }
  return isRecord(value) ? { ...value, ...fields } : value;
}

/** The `code` of a thrown error (Node's errno codes: "ENOENT", "EACCES"), undefined when it has none. */
export function systemErrorCode(error: unknown): unknown {
  return fieldOf(error, 'code');
}
