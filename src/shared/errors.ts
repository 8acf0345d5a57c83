/**
 * The error taxonomy. Every error that can reach a client carries one code from the closed set below;
 * the command protocol sends exactly these codes on the wire.
 */
export const ERROR_CODES = [
  'INVALID_JSON',
  'INVALID_REQUEST',
  'UNKNOWN_ACTION',
  'INVALID_PARAMS',
  'NOT_ATTACHED',
  'TAB_NOT_FOUND',
  /** The tab's page crashed: every command to it fails with this until `refresh` brings it back. */
  'TAB_CRASHED',
  'ELEMENT_NOT_FOUND',
  'ELEMENT_OCCLUDED',
  'NAVIGATION_FAILED',
  'URL_BLOCKED',
  'TIMEOUT',
  'DISCONNECTED',
  'CANCELLED',
  'FORBIDDEN',
  /** The tab waits for a person (a captcha or challenge page): actions there resume once it is solved. */
  'PERSON_NEEDED',
  'UNSUPPORTED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface TabpilotErrorOptions {
  cause?: unknown;
  /** Machine-readable extra facts (field names, ids); never secrets. */
  details?: Record<string, unknown>;
}

export class TabpilotError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: TabpilotErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TabpilotError';
    this.code = code;
    this.details = options.details;
  }
}

export function isTabpilotError(error: unknown): error is TabpilotError {
  return error instanceof TabpilotError;
}

/** The code a client sees for any thrown value: a known code where there is one, else INTERNAL. */
export function errorCodeOf(error: unknown): ErrorCode {
  return error instanceof TabpilotError ? error.code : 'INTERNAL';
}

export function errorMessageOf(error: unknown): string {
  if (error instanceof Error) {
    return error.message;
  }
  return typeof error === 'string' ? error : JSON.stringify(error);
}

export function assertNever(value: never, what = 'value'): never {
  throw new TabpilotError('INTERNAL', `Unexpected ${what}: ${JSON.stringify(value)}`);
}
