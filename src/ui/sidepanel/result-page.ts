import type { PanelStatus } from '../../protocol/panel-messages';
import { fieldOf } from '../../shared/narrow';

/** The tab and document a result was about: a later status that shows another one makes it stale. */
export interface ResultPage {
  tabId: string;
  /** The document's address without its fragment (a jump within the page is the same page). */
  url: string;
}

const withoutHash = (url: string): string => url.split('#', 1)[0] ?? url;

function focusedPage(status: PanelStatus | undefined): ResultPage | undefined {
  const tab = status?.tabs.find((candidate) => candidate.tab_id === status.focused_tab_id);
  return tab === undefined ? undefined : { tabId: tab.tab_id, url: withoutHash(tab.url) };
}

/**
 * The page a result belongs to: the tab and URL the result names itself when it does (a navigate
 * answers where it went, so a status that still shows the page it left does not count against it),
 * else the focused tab as the status shows it when the result came.
 */
export function pageOfResult(result: unknown, status: PanelStatus | undefined): ResultPage | undefined {
  const namedTab = fieldOf(result, 'tab_id');
  const namedUrl = fieldOf(result, 'url');
  const tabId = typeof namedTab === 'string' ? namedTab : undefined;
  const url = typeof namedUrl === 'string' ? namedUrl : undefined;
  if (tabId !== undefined && url !== undefined) {
    return { tabId, url: withoutHash(url) };
  }
  const focused = focusedPage(status);
  if (tabId !== undefined && focused?.tabId !== tabId) {
    const tab = status?.tabs.find((candidate) => candidate.tab_id === tabId);
    return tab === undefined ? undefined : { tabId, url: withoutHash(tab.url) };
  }
  return focused;
}

/** How a shown result stands against the pages the status shows after it came. */
export interface ResultTracking {
  page: ResultPage | undefined;
  /** The focused page the status showed when the result came: the one a navigate left, while the status lags. */
  before: ResultPage | undefined;
  /** The status has shown the result's page (a navigate's status can lag behind its answer). */
  caughtUp: boolean;
  /** The focused tab or its page changed after the result came. */
  stale: boolean;
}

export function trackResult(page: ResultPage | undefined, status: PanelStatus | undefined): ResultTracking {
  return followResult({ page, before: focusedPage(status), caughtUp: false, stale: false }, status);
}

/**
 * The tracking of a view's next result. One that names no page (a click, a refused form) while the status
 * has not yet shown the page the view's previous result went to (a navigate answers before the coalesced
 * status shows where it went) is about that page, not the one the lagging status still shows: it keeps
 * the previous tracking, so the status catching up does not hide it as a result of another page.
 */
export function trackNextResult(
  result: unknown,
  status: PanelStatus | undefined,
  previous: ResultTracking | undefined,
): ResultTracking {
  const lagging = previous !== undefined && previous.page !== undefined && !previous.caughtUp && !previous.stale;
  if (lagging && !namesItsPage(result)) {
    return followResult(previous, status);
  }
  return trackResult(pageOfResult(result, status), status);
}

function namesItsPage(result: unknown): boolean {
  return typeof fieldOf(result, 'tab_id') === 'string' && typeof fieldOf(result, 'url') === 'string';
}

const samePage = (a: ResultPage, b: ResultPage | undefined): boolean => a.tabId === b?.tabId && a.url === b.url;

/** A tab's first document, before the page a navigate opened it for commits. */
const BLANK_URLS: ReadonlySet<string> = new Set(['', 'about:blank']);

/**
 * A status that does not show the result's page yet may still lag behind it: it shows the page the
 * result left, or the result's new tab on its blank first document. Anything else means the page moved
 * on past the result before a status showed it (the status is coalesced, so another client's navigate
 * right after the answer can come first), and the result is stale. Without a page to compare from, the
 * status is waited for as before.
 */
function stillCatchingUp(tracking: ResultTracking, now: ResultPage): boolean {
  if (tracking.before === undefined || samePage(now, tracking.before)) {
    return true;
  }
  return now.tabId === tracking.page?.tabId && BLANK_URLS.has(now.url);
}

/** The tracking after a new status: caught up once it shows the result's page, stale when it shows another after. */
export function followResult(tracking: ResultTracking, status: PanelStatus | undefined): ResultTracking {
  const now = focusedPage(status);
  if (tracking.page === undefined || now === undefined || tracking.stale) {
    return tracking;
  }
  if (samePage(now, tracking.page)) {
    return tracking.caughtUp ? tracking : { ...tracking, caughtUp: true };
  }
  if (!tracking.caughtUp && stillCatchingUp(tracking, now)) {
    return tracking;
  }
  return { ...tracking, stale: true };
}
