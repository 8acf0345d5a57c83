import type { SessionManager } from '../../cdp/session-manager';
import type { ElementHandle } from '../../dom/element-handle';
import type { Logger } from '../../shared/logger';
import type { DownloadedFiles } from '../artifacts/downloaded-files';
import type { BrowserConfig } from '../config';

export type { ElementHandle };

/**
 * What every routine needs besides its element: the session manager, a log, a cancel signal, and the
 * config whose policy the routine applies itself (upload_paths, ...), so every caller gets the same checks.
 */
export interface RoutineContext {
  readonly targets: SessionManager;
  readonly log: Logger;
  readonly config: BrowserConfig;
  readonly signal?: AbortSignal | undefined;
  /**
   * The session's downloads: a click that starts one says so, and a file downloaded here may be
   * uploaded again without its folder in upload_paths. Without it clicks do not watch for downloads.
   */
  readonly downloads?: DownloadedFiles | undefined;
}

/** A handle on another element of the same frame (an option of a listbox, the file input of a button). */
export function siblingHandle(of: ElementHandle, objectId: string, label: string): ElementHandle {
  return { ...of, objectId, label };
}
