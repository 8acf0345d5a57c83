import type { CdpSession } from '../../cdp/session';
import type { SessionManager } from '../../cdp/session-manager';
import type { ResolvedElement } from '../../dom/dom-service';
import type { Logger } from '../../shared/logger';
import type { DownloadedFiles } from '../artifacts/downloaded-files';
import type { TabpilotConfig } from '../config';

/**
 * An element an action works on: a Runtime object in one of tabpilot's isolated worlds, the session of
 * its frame, and the tab's own session (input events and screenshots go there). Built from an index of
 * the latest state, or by the actor API from a CSS query: the routines do not care which.
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
 * What every routine needs besides its element: the session manager, a log, a cancel signal, and the
 * config whose policy the routine applies itself (upload_paths, ...), so every caller gets the same checks.
 */
export interface RoutineContext {
  readonly targets: SessionManager;
  readonly log: Logger;
  readonly config: TabpilotConfig;
  readonly signal?: AbortSignal | undefined;
  /**
   * The session's downloads: a click that starts one says so, and a file downloaded here may be
   * uploaded again without its folder in upload_paths. Without it clicks do not watch for downloads.
   */
  readonly downloads?: DownloadedFiles | undefined;
}

export function handleOfResolved(targetId: string, resolved: ResolvedElement): ElementHandle {
  return {
    targetId,
    session: resolved.session,
    pageSession: resolved.pageSession,
    objectId: resolved.objectId,
    label: `element ${resolved.entry.index}`,
  };
}

/** A handle on another element of the same frame (an option of a listbox, the file input of a button). */
export function siblingHandle(of: ElementHandle, objectId: string, label: string): ElementHandle {
  return { ...of, objectId, label };
}
