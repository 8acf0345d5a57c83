import type { BrowserClient } from '../../test/e2e/harness/browser';
import { heapOf } from './probe';

/**
 * The JS heap of the page showing `url`, after a full collection unless `collect` is false, read through a measuring client of
 * its own (attached for the reading, then detached: it never drives the page). Null when no tab shows it.
 */
export async function pageHeap(client: BrowserClient, url: string, collect = true): Promise<number | null> {
  const target = (await client.pageTargets()).find((page) => page.url === url);
  if (target === undefined) {
    return null;
  }
  const session = await client.attach(target.targetId);
  try {
    return await heapOf(session, collect);
  } finally {
    await client.root.send('Target.detachFromTarget', { sessionId: session.sessionId });
  }
}
