import type { BrowserClient } from '../../test/e2e/harness/browser';
import { heapAfterGc } from './probe';

/**
 * The JS heap of the page showing `url`, after a full collection, read through a measuring client of
 * its own (attached for the reading, then detached: it never drives the page). Null when no tab shows it.
 */
export async function pageHeap(client: BrowserClient, url: string): Promise<number | null> {
  const target = (await client.pageTargets()).find((page) => page.url === url);
  if (target === undefined) {
    return null;
  }
  const session = await client.attach(target.targetId);
  try {
    return await heapAfterGc(session);
  } finally {
    await client.root.send('Target.detachFromTarget', { sessionId: session.sessionId });
  }
}
