import { TabpilotError } from '../shared/errors';

/** A handler ran past its event's timeout. The handler's signal is aborted when this is raised. */
export class EventHandlerTimeoutError extends TabpilotError {
  readonly eventType: string;
  readonly handlerName: string;
  readonly timeoutMs: number;

  constructor(eventType: string, handlerName: string, timeoutMs: number) {
    super('TIMEOUT', `${eventType} handler ${handlerName} timed out after ${timeoutMs} ms`, {
      details: { event: eventType, handler: handlerName, timeout_ms: timeoutMs },
    });
    this.name = 'EventHandlerTimeoutError';
    this.eventType = eventType;
    this.handlerName = handlerName;
    this.timeoutMs = timeoutMs;
  }
}

/** A queued event that never ran: its parent timed out, or the bus was told to cancel queued work. */
export class EventCancelledError extends TabpilotError {
  constructor(eventType: string, reason: string) {
    super('CANCELLED', `${eventType} was cancelled: ${reason}`, { details: { event: eventType } });
    this.name = 'EventCancelledError';
  }
}

/** Awaiting children inline went deeper than the bus allows: almost always an emit loop. */
export class EventDepthError extends TabpilotError {
  constructor(eventType: string, depth: number) {
    super('INTERNAL', `${eventType} nested ${depth} levels deep; an event is probably emitting itself`, {
      details: { event: eventType, depth },
    });
    this.name = 'EventDepthError';
  }
}

/** The caller needs a value, but no handler returned one (for example, no handler is registered). */
export class EventNoResultError extends TabpilotError {
  constructor(eventType: string, handlerCount: number) {
    super('INTERNAL', `${eventType} completed without a result (${handlerCount} handler(s) ran)`, {
      details: { event: eventType },
    });
    this.name = 'EventNoResultError';
  }
}
