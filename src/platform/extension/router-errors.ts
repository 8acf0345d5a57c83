import type { CdpErrorPayload } from '../../protocol/cdp';
import { isBrowserPage } from '../../shared/browser-pages';
import { errorMessageOf } from '../../shared/errors';
import type { ChromeTab } from './chrome-api';

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

/** chrome:// pages, the web store and other extensions' pages cannot be debugged: say so plainly. */
export function assertAttachable(tab: ChromeTab, ownOrigin: string): void {
  const url = tab.url ?? tab.pendingUrl ?? '';
  if (isBrowserPage(url, ownOrigin)) {
    throw new RouterError(
      SERVER_ERROR,
      `This tab cannot be controlled: ${url.split('?')[0]} is a browser or extension page`,
    );
  }
}

/** chrome.debugger rejects with an Error whose message is the CDP error as JSON (platform facts §2). */
export function toRouterError(error: unknown): RouterError {
  if (error instanceof RouterError) {
    return error;
  }
  const text = errorMessageOf(error);
  try {
    const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof parsed.code === 'number' && typeof parsed.message === 'string') {
      return new RouterError(parsed.code, parsed.message);
    }
  } catch {
    // Not JSON: a plain chrome.debugger message such as "Debugger is not attached to the tab".
  }
  return new RouterError(/not attached|No tab with/i.test(text) ? -32001 : SERVER_ERROR, text);
}
