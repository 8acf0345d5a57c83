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

/** No answer within the call's timeout (a hung renderer answers nothing). */
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

/**
 * What a CDP error means for the caller, from the browser's message (CDP error codes are too coarse:
 * most failures are -32000). The one place such messages are matched.
 * - `target-gone`: the session or target is gone (a closed tab, a detached frame).
 * - `context-gone`: an execution context id from before a navigation (or of a detached frame), or a call
 *   whose document navigated while it ran (a click that submitted a form, verified as the page leaves).
 * - `object-gone`: a Runtime object id whose context or group was released.
 * - `node-gone`: a DOM node id or backend node id that is not in the document (it navigated or changed).
 * - `unsupported`: the method is not available through this transport.
 * - `browser-page`: chrome.debugger will not attach to (or keep talking to) a browser page
 *   ("Cannot access a chrome:// URL"): no extension may debug those.
 * - `already-attached`: chrome.debugger found a debugger on the tab already ("Another debugger is already
 *   attached to the tab with id: N."), which is tabpilot's own after a service worker restart.
 * The chrome.debugger messages are Chromium's (docs: the platform facts, Chromium 156); they are read here,
 * beside the CDP ones, so the extension's router matches no message itself.
 */
export type CdpErrorKind =
  | 'target-gone'
  | 'context-gone'
  | 'object-gone'
  | 'node-gone'
  | 'unsupported'
  | 'browser-page'
  | 'already-attached'
  | 'other';

const KIND_PATTERNS: ReadonlyArray<[Exclude<CdpErrorKind, 'other'>, RegExp]> = [
  [
    'context-gone',
    /Cannot find context with specified id|Execution context was destroyed|Cannot find default execution context|Inspected target navigated or closed/i,
  ],
  ['object-gone', /Could not find object with given id/i],
  [
    'node-gone',
    /does not belong to the document|No node with given id found|Could not find node with given id|Node is detached from document/i,
  ],
  [
    'target-gone',
    /Session with given id not found|No target with given id|Target closed|Debugger is not attached|No tab with (given )?id/i,
  ],
  ['unsupported', /wasn't found|^Not allowed$|Cannot not access browser-level commands/i],
  // Any message naming a chrome:// URL, as the router has always read it ("Cannot access a chrome:// URL").
  ['browser-page', /chrome:\/\//i],
  ['already-attached', /already attached/i],
];

const CONTEXT_NOT_FOUND = /Cannot find context with specified id/i;

/** Classifies a protocol error message (or any thrown value carrying one). */
export function cdpErrorKind(error: unknown): CdpErrorKind {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return KIND_PATTERNS.find(([, pattern]) => pattern.test(message))?.[0] ?? 'other';
}

/** A context, object or node of a document that is no longer there: the caller's reference is stale. */
export function isStaleReference(error: unknown): boolean {
  const kind = cdpErrorKind(error);
  return kind === 'context-gone' || kind === 'object-gone' || kind === 'node-gone';
}

/** Classifies a protocol error payload into the typed error a caller can act on. */
export function errorFromPayload(method: string, payload: CdpErrorPayload): TabpilotError {
  const kind = cdpErrorKind(payload.message);
  // A context id the browser no longer knows is answered as a gone target (its frame usually went).
  if (payload.code === -32001 || kind === 'target-gone' || CONTEXT_NOT_FOUND.test(payload.message)) {
    return new CdpTargetClosedError(payload.message, method);
  }
  if (payload.code === -32601 || kind === 'unsupported') {
    return new CdpUnsupportedError(method, payload.message);
  }
  return new CdpProtocolError(method, payload);
}

/** What a script that threw in the page says: the exception's description, else the console text. */
export function describeException(details: Protocol.Runtime.ExceptionDetails): string {
  return details.exception?.description ?? details.text;
}
