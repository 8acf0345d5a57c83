import { TabpilotError } from '../shared/errors';

/** A payload or result failed its schema; `field` names the first offending field. */
export class EventValidationError extends TabpilotError {
  readonly eventType: string;
  readonly field: string;

  constructor(eventType: string, field: string, message: string, issues: unknown) {
    super('INVALID_PARAMS', `${eventType}: ${field === '' ? '' : `${field}: `}${message}`, {
      details: { event: eventType, field, issues },
    });
    this.name = 'EventValidationError';
    this.eventType = eventType;
    this.field = field;
  }
}
