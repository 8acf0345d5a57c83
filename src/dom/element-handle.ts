import type { CdpSession } from '../cdp/session';

/**
 * An element an action works on: a Runtime object in tabpilot's isolated world of its frame, the
 * session of that frame, and the tab's own session (input events and screenshots go there). It is a
 * live reference, which the selector entry (plain data that outlives a document) cannot be. Made from
 * an index of the latest state (DomService.resolve) or by the actor API from a CSS query: the routines
 * do not care which.
 */
export interface ElementHandle {
  /** The tab (page target) the element is in. */
  readonly targetId: string;
  /** The session of the element's frame: the page's, or an out-of-process iframe's. */
  readonly session: CdpSession;
  readonly pageSession: CdpSession;
  readonly objectId: string;
  /** How messages name it ("element 12"). */
  readonly label: string;
}

/**
 * An indexed element before its handle exists: its frame's session, the world's context and the
 * element's id there. A call by id can go out together with the request for the handle.
 */
export interface ElementRef {
  readonly targetId: string;
  readonly session: CdpSession;
  readonly pageSession: CdpSession;
  readonly contextId: number;
  readonly localId: number;
}
