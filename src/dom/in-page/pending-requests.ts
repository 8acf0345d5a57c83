import type { PendingRequest } from '../payload';

const PENDING_LIMIT = 20;
const TRACKERS = /doubleclick|google-analytics|googletagmanager|facebook\.net|hotjar|segment\.io|analytics/i;

/** Requests still loading, as browser-use reports them (trackers, data: URLs and stragglers left out). */
export function pendingRequests(view: Window): PendingRequest[] {
  const now = view.performance.now();
  const out: PendingRequest[] = [];
  for (const entry of view.performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
    const loadingMs = now - entry.startTime;
    if (
      entry.responseEnd !== 0 ||
      entry.name.startsWith('data:') ||
      entry.name.length > 500 ||
      TRACKERS.test(entry.name) ||
      loadingMs > 10_000
    ) {
      continue;
    }
    out.push({ url: entry.name, resourceType: entry.initiatorType, loadingMs: Math.round(loadingMs) });
    if (out.length >= PENDING_LIMIT) {
      break;
    }
  }
  return out;
}
