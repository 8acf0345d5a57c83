import type { SessionManager } from '../../cdp/session-manager';
import type { ElementHandle } from '../../dom/element-handle';
import type { Logger } from '../../shared/logger';

export type { ElementHandle };

/** What every routine needs besides its element: the session manager, a log and a cancel signal. */
export interface RoutineContext {
  readonly targets: SessionManager;
  readonly log: Logger;
  readonly signal?: AbortSignal | undefined;
}

/** A handle on another element of the same frame (an option of a listbox, the file input of a button). */
export function siblingHandle(of: ElementHandle, objectId: string, label: string): ElementHandle {
  return { ...of, objectId, label };
}
