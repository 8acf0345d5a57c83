import type { BrowserHost } from '../../browser/host';

/**
 * The Node BrowserHost. tabpilot owns the browser it launched or was pointed at, so there are no tabs to
 * be given (no TabControl). Later parts add downloads and file saving over CDP and the file system.
 */
export function createNodeHost(): BrowserHost {
  return { tabControl: undefined };
}
