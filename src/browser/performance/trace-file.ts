import { utf8 } from '../../shared/bytes';
import { redact, type Secret } from '../../shared/redact';

/** `name` with .json added when it has no .json ending. */
export function traceFileName(name: string): string {
  return /\.json$/i.test(name) ? name : `${name}.json`;
}

/**
 * The file DevTools' Performance panel loads (its "Load profile"): `{"traceEvents": [...], "metadata":
 * {...}}`. The browser's own metadata (its command line, the machine's hardware) is not copied; ours says
 * where the trace came from and when it started. The events carry the page's URLs, script names and the
 * DOM's node names, never typed text (no screenshots are recorded); each configured secret is replaced by
 * its placeholder wherever it appears (a URL's query, a title) before the file is written.
 */
export function traceFileBytes(events: readonly unknown[], startedAt: number, secrets: readonly Secret[]): Uint8Array {
  const clean = secrets.length === 0 ? events : redact(events, secrets);
  return utf8(
    JSON.stringify({
      traceEvents: clean,
      metadata: { source: 'tabpilot', startTime: new Date(startedAt).toISOString(), dataOrigin: 'TraceEvents' },
    }),
  );
}
