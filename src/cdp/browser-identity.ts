import type { Protocol } from '../protocol/cdp';
import type { CdpConnection } from './connection';

/** Which browser is on the other end of a connection, as far as it tells. */
export interface BrowserIdentity {
  /**
   * The id of the browser's default context (Target.getBrowserContexts): made afresh by every browser
   * process and the same over every connection to it, so two browsers of one pool (same build, same flags)
   * still differ. The browser target's own id (Target.getTargetInfo) cannot serve: Chromium makes it
   * afresh for every connection. Undefined when not answered.
   */
  browserId: string | undefined;
  /** The root target's type: 'browser' for a browser endpoint, 'page' for one tab's endpoint. */
  targetType: string | undefined;
  /** The page targets the browser has now (the fallback when it does not say its id). */
  pageIds: readonly string[];
}

/**
 * Asks the other end who it is: three browser-level calls, each allowed to fail (a proxy in front of a
 * browser may filter what it does not know, and a page's endpoint refuses Target.getBrowserContexts), so
 * the answer may be partial, never an error.
 */
export async function readBrowserIdentity(connection: CdpConnection, signal?: AbortSignal): Promise<BrowserIdentity> {
  const options = { timeoutMs: 10_000, ...(signal === undefined ? {} : { signal }) };
  const [info, contexts, targets] = await Promise.all([
    connection
      .send('Target.getTargetInfo', {}, undefined, options)
      .then((result) => (result as Protocol.Target.GetTargetInfoResponse).targetInfo)
      .catch(() => undefined),
    connection
      .send('Target.getBrowserContexts', {}, undefined, options)
      .then((result) => (result as Protocol.Target.GetBrowserContextsResponse).defaultBrowserContextId)
      .catch(() => undefined),
    connection
      .send('Target.getTargets', {}, undefined, options)
      .then((result) => (result as Protocol.Target.GetTargetsResponse).targetInfos)
      .catch(() => []),
  ]);
  return {
    browserId: info?.type === 'page' ? undefined : contexts,
    targetType: info?.type,
    pageIds: targets.filter((target) => target.type === 'page').map((target) => target.targetId),
  };
}

/**
 * Whether `now` is the browser `before` was. The browser ids decide when both are known; else a browser
 * that kept none of the pages tabpilot had (`knownPageIds`) is another one; with neither to go on, the
 * answer is undefined (and nothing is claimed).
 */
export function isSameBrowser(
  before: BrowserIdentity,
  now: BrowserIdentity,
  knownPageIds: readonly string[],
): boolean | undefined {
  if (before.browserId !== undefined && now.browserId !== undefined) {
    return before.browserId === now.browserId;
  }
  if (knownPageIds.length > 0) {
    const present = new Set(now.pageIds);
    return knownPageIds.some((targetId) => present.has(targetId));
  }
  return undefined;
}
