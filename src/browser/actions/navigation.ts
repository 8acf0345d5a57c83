import type { CdpSession } from '../../cdp/session';
import type { SessionManager } from '../../cdp/session-manager';
import type { LifecycleEntry } from '../../cdp/lifecycle';
import type { Protocol } from '../../protocol/cdp';
import { CdpProtocolError } from '../../cdp/errors';
import { TabpilotError } from '../../shared/errors';
import type { NavigationOutcome, WaitUntil } from '../../protocol/events/navigation.events';
import { urlBlockedError, type BlockRecord, type NavigationGuard } from '../security/navigation-guard';

/** The lifecycle names that satisfy each `wait_until` (networkIdle counting for all). */
const ACCEPTED: Record<Exclude<WaitUntil, 'commit'>, readonly string[]> = {
  load: ['load', 'networkIdle'],
  domcontentloaded: ['DOMContentLoaded', 'load', 'networkIdle'],
  networkidle: ['networkIdle'],
};

const SAME_HOST_READINESS_MS = 3000;
const OTHER_READINESS_MS = 8000;

/** browser-use's readiness budget: 3 s when staying on the same http(s) host, else 8 s. */
export function defaultReadinessMs(fromUrl: string, toUrl: string): number {
  try {
    const from = new URL(fromUrl);
    const to = new URL(toUrl);
    const http = (u: URL): boolean => u.protocol === 'http:' || u.protocol === 'https:';
    return http(from) && http(to) && from.host === to.host ? SAME_HOST_READINESS_MS : OTHER_READINESS_MS;
  } catch {
    // An unparsable current URL (about:blank parses; only odd schemes land here): the longer budget.
    return OTHER_READINESS_MS;
  }
}

export interface NavigateOptions {
  url: string;
  waitUntil: WaitUntil;
  readinessMs: number;
  navigateTimeoutMs: number;
  /** The URL policy: refused URLs are never sent, and a request it failed names its rule. */
  guard: NavigationGuard;
  signal?: AbortSignal;
}

/**
 * Page.navigate, then waits for the requested readiness of that very document (matched by loaderId).
 * A URL the policy refuses fails with URL_BLOCKED before anything is sent, and so does a navigation whose
 * request (a redirect, say) the security watchdog failed at the network; another net:: error fails with
 * NAVIGATION_FAILED; a readiness timeout is reported in `loading_status`, not raised, as browser-use does.
 */
export async function navigateAndWait(
  targets: SessionManager,
  targetId: string,
  options: NavigateOptions,
): Promise<NavigationOutcome> {
  options.guard.check(options.url, targetId);
  const session = targets.requireSession(targetId);
  const startedAt = Date.now();
  let response: Protocol.Page.NavigateResponse;
  try {
    response = await session.call(
      'Page.navigate',
      { url: options.url, transitionType: 'address_bar' },
      options.signal === undefined
        ? { timeoutMs: options.navigateTimeoutMs }
        : { timeoutMs: options.navigateTimeoutMs, signal: options.signal },
    );
  } catch (error) {
    // Page.navigate answers once the server does. A navigation left pending (a server that never
    // answers) holds back every command to the page until it commits, so it is stopped.
    if (!(error instanceof CdpProtocolError)) {
      await stopLoading(session);
    }
    throw error;
  }
  if (response.errorText !== undefined && response.errorText !== '') {
    const block = options.guard.mainFrameBlockSince(targetId, startedAt);
    if (block !== undefined) {
      throw urlBlockedError(options.url, block.decision, block.url);
    }
    throw new TabpilotError('NAVIGATION_FAILED', `Navigation to ${options.url} failed: ${response.errorText}`, {
      details: { url: options.url, error_text: response.errorText },
    });
  }
  // No loaderId: a same-document move (fragment, History API), complete at once.
  if (options.waitUntil === 'commit' || response.loaderId === undefined) {
    return outcome(targets, targetId, options.url, null);
  }
  const loadingStatus = await waitForReadiness(targets, targetId, response.loaderId, options);
  return outcome(targets, targetId, options.url, loadingStatus);
}

/**
 * For history moves and reloads, which return no loaderId: watches the main frame commit that `trigger`
 * causes (a new document, a same-document move or a back/forward-cache restore), then waits for
 * readiness of the new document.
 */
export async function runAndWaitForCommit(
  targets: SessionManager,
  targetId: string,
  trigger: (session: CdpSession) => Promise<unknown>,
  options: Omit<NavigateOptions, 'url'>,
): Promise<NavigationOutcome> {
  const session = targets.requireSession(targetId);
  const committed = waitForMainFrameCommit(session, targetId, options);
  try {
    await trigger(session);
  } catch (error) {
    committed.cancel();
    throw error;
  }
  const commit = await committed.promise;
  if (commit?.kind === 'blocked') {
    throw urlBlockedError(commit.block.url, commit.block.decision);
  }
  if (commit === undefined) {
    return outcome(
      targets,
      targetId,
      '',
      `timeout after ${options.readinessMs / 1000}s waiting for the page to commit`,
    );
  }
  if (commit.kind !== 'document' || options.waitUntil === 'commit') {
    return outcome(targets, targetId, commit.url, null);
  }
  const loadingStatus = await waitForReadiness(targets, targetId, commit.loaderId, options);
  return outcome(targets, targetId, commit.url, loadingStatus);
}

async function waitForReadiness(
  targets: SessionManager,
  targetId: string,
  loaderId: string,
  options: Omit<NavigateOptions, 'url'>,
): Promise<string | null> {
  const buffer = targets.lifecycle(targetId);
  if (buffer === undefined || options.waitUntil === 'commit') {
    return null;
  }
  const accepted = ACCEPTED[options.waitUntil];
  const matches = (entry: LifecycleEntry): boolean => entry.loaderId === loaderId && accepted.includes(entry.name);
  try {
    await buffer.waitFor(matches, {
      timeoutMs: options.readinessMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      describe: () => 'readiness timeout',
    });
    return null;
  } catch (error) {
    if (error instanceof TabpilotError && error.code === 'TIMEOUT') {
      const seen = buffer.entries.filter((entry) => entry.loaderId === loaderId).map((entry) => entry.name);
      return seen.length === 0
        ? `timeout after ${options.readinessMs / 1000}s: no lifecycle events received`
        : `timeout after ${options.readinessMs / 1000}s waiting for '${options.waitUntil}' (saw: ${seen.join(', ')})`;
    }
    throw error;
  }
}

type Commit =
  | { kind: 'document' | 'same-document' | 'bfcache'; loaderId: string; url: string }
  | { kind: 'blocked'; block: BlockRecord };

function waitForMainFrameCommit(
  session: CdpSession,
  targetId: string,
  options: Omit<NavigateOptions, 'url'>,
): { promise: Promise<Commit | undefined>; cancel(): void } {
  const { readinessMs: timeoutMs, signal } = options;
  let finish!: (commit: Commit | undefined) => void;
  const promise = new Promise<Commit | undefined>((resolve) => (finish = resolve));
  const disposers = [
    session.on('Page.frameNavigated', (params: Protocol.Page.FrameNavigatedEvent) => {
      if (params.frame.parentId === undefined) {
        done({
          kind: params.type === 'BackForwardCacheRestore' ? 'bfcache' : 'document',
          loaderId: params.frame.loaderId,
          url: params.frame.url,
        });
      }
    }),
    session.on('Page.navigatedWithinDocument', (params: Protocol.Page.NavigatedWithinDocumentEvent) => {
      if (params.frameId === targetId) {
        done({ kind: 'same-document', loaderId: '', url: params.url });
      }
    }),
    // The document the move asked for was refused at the network: nothing will commit.
    options.guard.watch((block) => {
      if (block.targetId === targetId && block.mainFrame) {
        done({ kind: 'blocked', block });
      }
    }),
  ];
  const timer = setTimeout(() => done(undefined), timeoutMs);
  const onAbort = (): void => done(undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  function done(commit: Commit | undefined): void {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    for (const dispose of disposers) {
      dispose();
    }
    finish(commit);
  }
  return { promise, cancel: () => done(undefined) };
}

function outcome(
  targets: SessionManager,
  targetId: string,
  fallbackUrl: string,
  loadingStatus: string | null,
): NavigationOutcome {
  const url = targets.lifecycle(targetId)?.mainFrame?.url ?? targets.target(targetId)?.url ?? fallbackUrl;
  return { target_id: targetId, url: url === '' ? fallbackUrl : url, loading_status: loadingStatus };
}

const STOP_LOADING_MS = 1000;

/**
 * Cancels a tab's pending navigation, as the browser's Stop button does. While a cross-document
 * navigation waits for its response, Chromium holds back every command meant for the page (measured:
 * Runtime.evaluate and Page.enable hang, over the WebSocket and chrome.debugger alike); Page.stopLoading
 * is answered by the browser itself and frees the page. Best effort and bounded: the tab may be gone.
 */
export async function stopLoading(session: CdpSession): Promise<boolean> {
  return session.call('Page.stopLoading', undefined, { timeoutMs: STOP_LOADING_MS }).then(
    () => true,
    // The tab closed or the connection went: there is no navigation left to stop.
    () => false,
  );
}
