import type { CommandError } from '../protocol/commands';
import { errorMessageOf, isTabpilotError } from '../shared/errors';
import { silentLogger, type Logger } from '../shared/logger';

/** A failure as a client reads it: a TabpilotError's code, message and details; anything else is INTERNAL, logged. */
export function toCommandError(error: unknown, log: Logger = silentLogger): CommandError {
  if (isTabpilotError(error)) {
    return error.details === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, details: error.details };
  }
  log.error('unexpected error', {
    error: errorMessageOf(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
  return { code: 'INTERNAL', message: errorMessageOf(error) };
}
