import { ERROR_CODES } from '../shared/errors';
import { isOneOf, isRecord } from '../shared/narrow';
import type { CommandResponse, EventMessage } from './commands';
import type { HostNotice } from './native-socket';

/**
 * Guards for the lines a host sends once the hello is done, written without zod for the CLI's lean path
 * (see native-socket-shapes.ts). Each checks the fields a reader relies on, so a malformed line is
 * dropped instead of being read as a shape it does not have.
 */

const APPROVALS = ['approved', 'pending', 'denied'] as const;

function isRequestIdOrNull(value: unknown): boolean {
  return value === null || typeof value === 'number' || typeof value === 'string';
}

function isOptional(value: unknown, check: (value: unknown) => boolean): boolean {
  return value === undefined || check(value);
}

export function isCommandResponse(value: unknown): value is CommandResponse {
  if (!isRecord(value) || !isRequestIdOrNull(value['id'])) {
    return false;
  }
  if (value['ok'] === true) {
    return true;
  }
  const error = value['error'];
  return (
    value['ok'] === false &&
    isRecord(error) &&
    isOneOf(ERROR_CODES, error['code']) &&
    typeof error['message'] === 'string' &&
    isOptional(error['details'], isRecord)
  );
}

export function isEventLine(value: unknown): value is EventMessage {
  return (
    isRecord(value) &&
    typeof value['event'] === 'string' &&
    typeof value['id'] === 'string' &&
    (value['parent_id'] === null || typeof value['parent_id'] === 'string') &&
    (value['source'] === null || typeof value['source'] === 'string')
  );
}

export function isHostNotice(value: unknown): value is HostNotice {
  const notice = isRecord(value) ? value['notice'] : undefined;
  return (
    isRecord(notice) &&
    typeof notice['message'] === 'string' &&
    isOptional(notice['key'], (key) => typeof key === 'string') &&
    isOptional(notice['approval'], (approval) => isOneOf(APPROVALS, approval))
  );
}
