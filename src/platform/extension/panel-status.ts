import type { PanelStatus } from '../../protocol/panel-messages';
import type { ChromeTab } from './chrome-api';

/** Where the panel's status comes from: the router (what is attached) and the session (ids, focus). */
export interface StatusSources {
  controlled(): ReadonlyArray<{ tabId: number; targetId: string }>;
  userCancelled(): boolean;
  /** A stop let go of every tab and nothing was attached since. */
  stopped(): boolean;
  /** Why the person holds the clients back (client-hold.ts), or undefined. */
  hold(): string | undefined;
  focusedTargetId(): string | undefined;
  tabIdOf(targetId: string): string;
  page(targetId: string): { url: string; title: string } | undefined;
  /** The guard watchdogs' word on a tab (BrowserSession.conditions). */
  status(targetId: string): { status: PanelStatus['tabs'][number]['status']; reason: string | null };
  chromeTab(tabId: number): Promise<ChromeTab | undefined>;
  /** The client that leases the tab, if any. */
  owner(targetId: string): string | undefined;
}

export async function readPanelStatus(sources: StatusSources): Promise<PanelStatus> {
  const focus = sources.focusedTargetId();
  const tabs = await Promise.all(
    sources.controlled().map(async ({ tabId, targetId }) => {
      const chromeTab = await sources.chromeTab(tabId);
      const page = sources.page(targetId);
      const { status, reason } = sources.status(targetId);
      return {
        tab_id: sources.tabIdOf(targetId),
        target_id: targetId,
        url: page?.url ?? chromeTab?.url ?? '',
        title: page?.title ?? chromeTab?.title ?? '',
        focused: targetId === focus,
        window_id: chromeTab?.windowId ?? null,
        status,
        status_reason: reason,
        owner: sources.owner(targetId) ?? null,
      };
    }),
  );
  const focused = tabs.find((tab) => tab.focused);
  return {
    attached: tabs.length > 0,
    user_cancelled: sources.userCancelled(),
    stopped: tabs.length === 0 && sources.stopped(),
    hold: sources.hold() ?? null,
    tabs,
    focused_tab_id: focused?.tab_id ?? null,
  };
}
