import { cdpErrorKind } from '../../cdp/errors';
import type { CdpErrorPayload } from '../../protocol/cdp';
import { isBrowserPage } from '../../shared/browser-pages';
import { errorMessageOf } from '../../shared/errors';
import type { ChromeTab } from './chrome-api';
import { fieldOf } from '../../shared/narrow';

/** CDP's generic server error code, which chrome.debugger uses for most refusals. */
export const SERVER_ERROR = -32000;

/** An error the router answers a command with, in CDP's own shape. */
export class RouterError extends Error {
  readonly payload: CdpErrorPayload;
  constructor(code: number, message: string) {
    super(message);
    this.name = 'RouterError';
    this.payload = { code, message };
  }
}

/**
 * A tab the router will not take, and why: `browser-page` (chrome://, the Web Store, another extension's
 * page: Chrome lets no extension debug those) or `own-page` (tabpilot's own pages, such as the side panel
 * opened as a tab: Chrome would allow it, but the agent would then see and click tabpilot's own Stop,
 * Release and Settings).
 */
export class UnattachableTabError extends RouterError {
  readonly reason: 'browser-page' | 'own-page';
  constructor(reason: 'browser-page' | 'own-page', message: string) {
    super(SERVER_ERROR, message);
    this.name = 'UnattachableTabError';
    this.reason = reason;
  }
}

/** Refuses, with a message that says why, a tab tabpilot must not control. */
export function assertAttachable(tab: ChromeTab, ownOrigin: string): void {
  const url = tab.url ?? tab.pendingUrl ?? '';
  const shown = url.split('?')[0] ?? url;
  if (url.startsWith(ownOrigin)) {
    throw new UnattachableTabError(
      'own-page',
      `This tab cannot be controlled: ${shown} is tabpilot's own page, and tabpilot does not control itself (a client could click its Stop, Release and Settings). Attach a web page's tab instead: run "tabs" with all, then "attach" with its tab_id`,
    );
  }
  if (isBrowserPage(url)) {
    throw new UnattachableTabError(
      'browser-page',
      `This tab cannot be controlled: ${shown} is a browser or extension page`,
    );
  }
}

/** chrome.debugger rejects with an Error whose message is the CDP error as JSON. */
export function toRouterError(error: unknown): RouterError {
  if (error instanceof RouterError) {
    return error;
  }
  const text = errorMessageOf(error);
  try {
    const parsed: unknown = JSON.parse(text);
    const code = fieldOf(parsed, 'code');
    const message = fieldOf(parsed, 'message');
    if (typeof code === 'number' && typeof message === 'string') {
      return new RouterError(code, message);
    }
  } catch {
    // Not JSON: a plain chrome.debugger message such as "Debugger is not attached to the tab".
  }
  // A gone tab is CDP's -32001, as the browser itself says it; the one classifier decides which that is.
  return new RouterError(cdpErrorKind(text) === 'target-gone' ? -32001 : SERVER_ERROR, text);
}
