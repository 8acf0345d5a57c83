import { CLIENT_NAME_PATTERN } from './client-name';
import type { HostRecord, HostWelcome } from './native-socket';

/**
 * The two messages a socket client must check before it can talk (the host's discovery record and
 * its welcome), checked without zod: the CLI's lean path reads them on every command, and loading
 * zod costs it about 50 ms. native-socket-shapes.test.ts holds each shape to its zod schema
 * (native-socket.ts), key for key and verdict for verdict.
 */
export type Shape =
  | 'string'
  | 'number'
  | 'int'
  | 'client-name'
  | { readonly nullable: Shape }
  | { readonly object: Readonly<Record<string, Shape>> };

export const HOST_INFO_SHAPE: Shape = {
  object: {
    pid: 'int',
    version: 'string',
    socket: 'string',
    user_data_dir: { nullable: 'string' },
    started_at: 'number',
  },
};

export const EXTENSION_INFO_SHAPE: Shape = {
  object: { id: 'string', version: 'string', browser: 'string', profile_id: 'string' },
};

export const HOST_RECORD_SHAPE: Shape = {
  object: {
    pid: 'int',
    socket: 'string',
    extension_id: 'string',
    user_data_dir: { nullable: 'string' },
    profile_id: { nullable: 'string' },
    browser: { nullable: 'string' },
    version: 'string',
    started_at: 'number',
  },
};

export const HOST_WELCOME_SHAPE: Shape = {
  object: {
    hello: {
      object: { client: 'client-name', host: HOST_INFO_SHAPE, extension: { nullable: EXTENSION_INFO_SHAPE } },
    },
  },
};

/** Whether a value has the shape: no key it does not know (strict), every key there and of its kind. */
export function matchesShape(value: unknown, shape: Shape): boolean {
  if (shape === 'string') {
    return typeof value === 'string';
  }
  if (shape === 'number') {
    return typeof value === 'number' && Number.isFinite(value);
  }
  if (shape === 'int') {
    return Number.isSafeInteger(value);
  }
  if (shape === 'client-name') {
    return typeof value === 'string' && CLIENT_NAME_PATTERN.test(value);
  }
  if ('nullable' in shape) {
    return value === null || matchesShape(value, shape.nullable);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const fields = value as Record<string, unknown>;
  return (
    Object.keys(fields).every((key) => Object.hasOwn(shape.object, key)) &&
    Object.entries(shape.object).every(([key, field]) => matchesShape(fields[key], field))
  );
}

export function isHostRecord(value: unknown): value is HostRecord {
  return matchesShape(value, HOST_RECORD_SHAPE);
}

export function isHostWelcome(value: unknown): value is HostWelcome {
  return matchesShape(value, HOST_WELCOME_SHAPE);
}
