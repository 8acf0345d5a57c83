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

/** Refuses a URL that would run script instead of loading a page: every navigation path calls this. */
export function assertLoadsPage(url: string): void {
  if (runsScript(url)) {
    throw new TabpilotError(
      'URL_BLOCKED',
      'navigate does not run javascript: URLs (that would be evaluate, which allow_evaluate controls)',
      { details: { scheme: 'javascript:' } },
    );
  }
}
