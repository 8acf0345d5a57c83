import type { PanelStatus } from '../../protocol/panel-messages';

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
  const named = typeof result === 'object' && result !== null ? (result as Record<string, unknown>) : {};
  const tabId = typeof named['tab_id'] === 'string' ? named['tab_id'] : undefined;
  const url = typeof named['url'] === 'string' ? named['url'] : undefined;
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
  /** The status has shown the result's page (a navigate's status can lag behind its answer). */
  caughtUp: boolean;
  /** The focused tab or its page changed after the status showed the result's page. */
  stale: boolean;
}

export function trackResult(page: ResultPage | undefined, status: PanelStatus | undefined): ResultTracking {
  return followResult({ page, caughtUp: false, stale: false }, status);
}

/** The tracking after a new status: caught up once it shows the result's page, stale when it leaves it after. */
export function followResult(tracking: ResultTracking, status: PanelStatus | undefined): ResultTracking {
  const now = focusedPage(status);
  if (tracking.page === undefined || now === undefined || tracking.stale) {
    return tracking;
  }
  const same = now.tabId === tracking.page.tabId && now.url === tracking.page.url;
  if (!tracking.caughtUp) {
    return same ? { ...tracking, caughtUp: true } : tracking;
  }
  return same ? tracking : { ...tracking, stale: true };
}
