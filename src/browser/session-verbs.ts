import { TabpilotError } from '../shared/errors';
import { SwitchTabEvent } from './events/tabs.events';
import type { BrowserSession } from './session';
import type { TabStatus } from './guards/tab-conditions';

/** A tab as the protocol lists it. */
export interface TabInfo {
  tab_id: string;
  url: string;
  title: string;
  /** The tab the agent works in. */
  focused: boolean;
  /** Under tabpilot's control (always true where tabpilot owns the browser). */
  controlled: boolean;
  /** What the guard watchdogs say of the tab (ok, crashed, unresponsive, needs_person, solving), and why. */
  status: TabStatus;
  status_reason: string | null;
}

/**
 * The session verbs of the protocol (attach, release, tabs, stop), over both platforms. Where tabpilot
 * owns the browser (Node) every page is controlled: attach (re)connects and optionally focuses a tab,
 * release lets go of the browser and leaves it running. In the extension they add and remove tabs
 * from the controlled set through the host (DESIGN §4).
 */
export async function listTabs(
  session: BrowserSession,
  all: boolean,
): Promise<{ tabs: TabInfo[]; focused_tab_id: string | null }> {
  const focus = session.targets.focusedTargetId;
  const connected = session.connectionState === 'connected';
  if (connected) {
    await session.targets.refreshTargetInfo();
  }
  const controlled = connected ? session.targets.pages() : [];
  const tabs: TabInfo[] = controlled.map((page) => ({
    tab_id: session.tabIdOf(page.targetId),
    url: page.url,
    title: page.title,
    focused: page.targetId === focus,
    controlled: true,
    ...statusOf(session, page.targetId),
  }));
  const control = session.host.tabControl;
  if (all && control !== undefined) {
    const known = new Set(controlled.map((page) => page.targetId));
    for (const tab of await control.listAll()) {
      if (!known.has(tab.target_id)) {
        tabs.push({
          tab_id: session.tabIdOf(tab.target_id),
          url: tab.url,
          title: tab.title,
          focused: false,
          controlled: false,
          status: 'ok',
          status_reason: null,
        });
      }
    }
  }
  return { tabs, focused_tab_id: focus === undefined ? null : session.tabIdOf(focus) };
}

/** Resolves a tab_id to a target id among the tabs tabpilot knows, or TAB_NOT_FOUND. */
export function resolveTabId(session: BrowserSession, tabId: string): string {
  const targetId = session.tabIds.targetFor(tabId);
  if (targetId === undefined) {
    throw new TabpilotError('TAB_NOT_FOUND', `No tab with tab_id ${tabId} (list them with "tabs")`, {
      details: { tab_id: tabId },
    });
  }
  return targetId;
}

export async function attach(session: BrowserSession, tabId: string | undefined): Promise<TabInfo> {
  if (session.connectionState !== 'connected') {
    await session.start();
  }
  const control = session.host.tabControl;
  let targetId: string;
  if (control === undefined) {
    targetId = tabId === undefined ? await session.focusedTargetId() : resolveTabId(session, tabId);
  } else {
    let wanted: string | undefined;
    if (tabId !== undefined) {
      wanted = session.tabIds.targetFor(tabId);
      if (wanted === undefined) {
        // A tab_id from `tabs {all: true}` of a tab listed before this id registry saw it.
        const match = (await control.listAll()).find(
          (tab) => session.tabIdOf(tab.target_id).toLowerCase() === tabId.toLowerCase(),
        );
        if (match === undefined) {
          throw new TabpilotError('TAB_NOT_FOUND', `No tab with tab_id ${tabId} (list them with "tabs {all: true}")`);
        }
        wanted = match.target_id;
      }
    }
    targetId = await control.attach(wanted);
    await session.targets.waitForPage(targetId);
  }
  await session.bus.emit(SwitchTabEvent, { target_id: targetId, activate: false }, { source: 'session' });
  const page = session.targets.target(targetId);
  return {
    tab_id: session.tabIdOf(targetId),
    url: page?.url ?? '',
    title: page?.title ?? '',
    focused: true,
    controlled: true,
    ...statusOf(session, targetId),
  };
}

function statusOf(session: BrowserSession, targetId: string): { status: TabStatus; status_reason: string | null } {
  const { status, reason } = session.conditions.status(targetId);
  return { status, status_reason: reason };
}

export async function release(session: BrowserSession, tabId: string | undefined): Promise<{ released: string[] }> {
  const control = session.host.tabControl;
  if (control === undefined) {
    if (tabId !== undefined) {
      throw new TabpilotError(
        'INVALID_PARAMS',
        'release takes no tab_id where tabpilot owns the browser: it lets go of the whole browser (use close for one tab)',
        { details: { field: 'tab_id' } },
      );
    }
    const released = session.targets.pages().map((page) => session.tabIdOf(page.targetId));
    session.disconnect('released by client');
    return { released };
  }
  const targets =
    tabId === undefined ? session.targets.pages().map((page) => page.targetId) : [resolveTabId(session, tabId)];
  for (const targetId of targets) {
    if (session.targets.target(targetId) === undefined) {
      throw new TabpilotError('TAB_NOT_FOUND', `Tab ${session.tabIdOf(targetId)} is not controlled`);
    }
    await control.release(targetId);
  }
  await session.targets.settled();
  return { released: targets.map((targetId) => session.tabIdOf(targetId)) };
}

/** The emergency stop: cancels queued work, then detaches everything (Node: kills a launched browser). */
export async function stop(session: BrowserSession): Promise<{ stopped: true; cancelled: number }> {
  const cancelled = session.bus.cancelQueued('stop requested');
  await session.stop();
  return { stopped: true, cancelled };
}
