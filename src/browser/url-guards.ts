import { isBrowserPage } from '../shared/browser-pages';
import { TabpilotError } from '../shared/errors';

/**
 * Whether a URL given to navigate would run script in the current page instead of loading one:
 * `javascript:` does, and Page.navigate runs it (measured: the page's title changed, then the call
 * failed with ERR_ABORTED), which would make navigate an `evaluate` that `allow_evaluate` cannot turn off.
 * Parsed as the browser parses it, so "JavaScript:", leading spaces and tabs inside the scheme count too.
 */
export function runsScript(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL the browser could navigate to either (Page.navigate reports that itself).
    return false;
  }
  return parsed.protocol === 'javascript:';
}

/**
 * Refuses, before anything is sent, a URL navigate must not load: one that would run script in the page
 * instead, and, where the transport cannot drive them, the browser's own pages (going there would lose
 * the tab). Every navigation path calls this.
 */
export function assertNavigable(url: string, drivesBrowserPages: boolean): void {
  if (runsScript(url)) {
    throw new TabpilotError(
      'URL_BLOCKED',
      'navigate does not run javascript: URLs (that would be evaluate, which allow_evaluate controls)',
      { details: { scheme: 'javascript:' } },
    );
  }
  if (!drivesBrowserPages && isBrowserPage(url)) {
    throw new TabpilotError(
      'URL_BLOCKED',
      `${url.split('?')[0]} is a browser or extension page: Chrome does not let an extension control those, so the tab would be lost`,
      { details: { url } },
    );
  }
}

/** Adds https:// to a bare host ("example.com/x"), as a person typing in the address bar would expect. */
export function normalizeUrl(url: string): string {
  const trimmed = url.trim();
  // Browsers drop tabs and newlines anywhere in a URL: "java\tscript:" is a scheme too.
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed.replace(/[\t\n\r]/g, ''))) {
    return trimmed;
  }
  return `https://${trimmed}`;
}
