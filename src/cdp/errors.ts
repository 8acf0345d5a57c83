import { TabpilotError } from '../shared/errors';
import type { CdpErrorPayload, Protocol } from '../protocol/cdp';

/** The browser answered a command with an error. */
export class CdpProtocolError extends TabpilotError {
  readonly method: string;
  readonly protocolCode: number;
  readonly protocolMessage: string;

  constructor(method: string, payload: CdpErrorPayload) {
    super('INTERNAL', `${method}: ${payload.message}${payload.data === undefined ? '' : ` (${payload.data})`}`, {
      details: { method, protocol_code: payload.code },
    });
    this.name = 'CdpProtocolError';
    this.method = method;
    this.protocolCode = payload.code;
    this.protocolMessage = payload.message;
  }
}

/** The target or session is gone (closed tab, detached frame, unknown session id). */
export class CdpTargetClosedError extends TabpilotError {
  constructor(message: string, method?: string) {
    super('TAB_NOT_FOUND', method === undefined ? message : `${method}: ${message}`, {
      details: method === undefined ? {} : { method },
    });
    this.name = 'CdpTargetClosedError';
  }
}

/** The transport closed while the call was pending, or before it was sent. */
export class CdpConnectionClosedError extends TabpilotError {
  constructor(reason: string, method?: string) {
    super('DISCONNECTED', `${method === undefined ? 'CDP connection' : method} closed: ${reason}`, {
      details: method === undefined ? { reason } : { reason, method },
    });
    this.name = 'CdpConnectionClosedError';
  }
}

/** No answer within the call's timeout (a hung renderer answers nothing: platform facts §6). */
export class CdpTimeoutError extends TabpilotError {
  constructor(method: string, timeoutMs: number) {
    super(
      'TIMEOUT',
      `${method} did not answer within ${timeoutMs} ms (raise cdp_timeout_ms if the page is just slow)`,
      {
        details: { method, timeout_ms: timeoutMs },
      },
    );
    this.name = 'CdpTimeoutError';
  }
}

/** The transport cannot do this at all (the Browser domain through chrome.debugger, for example). */
export class CdpUnsupportedError extends TabpilotError {
  constructor(method: string, why: string) {
    super('UNSUPPORTED', `${method} is not available here: ${why}`, { details: { method } });
    this.name = 'CdpUnsupportedError';
  }
}

const TARGET_GONE_PATTERNS = [
  /Session with given id not found/i,
  /No target with given id/i,
  /Target closed/i,
  /Debugger is not attached/i,
  /No tab with (given )?id/i,
  /Cannot find context with specified id/i,
];

const UNSUPPORTED_PATTERNS = [/wasn't found/i, /^Not allowed$/i, /Cannot not access browser-level commands/i];

/** Classifies a protocol error payload into the typed error a caller can act on. */
export function errorFromPayload(method: string, payload: CdpErrorPayload): TabpilotError {
  if (payload.code === -32001 || TARGET_GONE_PATTERNS.some((pattern) => pattern.test(payload.message))) {
    return new CdpTargetClosedError(payload.message, method);
  }
  if (payload.code === -32601 || UNSUPPORTED_PATTERNS.some((pattern) => pattern.test(payload.message))) {
    return new CdpUnsupportedError(method, payload.message);
  }
  return new CdpProtocolError(method, payload);
}

/** What a script that threw in the page says: the exception's description, else the console text. */
export function describeException(details: Protocol.Runtime.ExceptionDetails): string {
  return details.exception?.description ?? details.text;
}
