import type { PayloadOf } from '../../protocol/define-event';
import { BrowserStartEvent, BrowserStopEvent } from '../../protocol/events/lifecycle.events';
import {
  AgentFocusChangedEvent,
  SwitchTabEvent,
  type AttachTabEvent,
  type CloseTabEvent,
  type ListTabsEvent,
  type ReleaseTabEvent,
  type TabInfo,
} from '../../protocol/events/tabs.events';
import { TabpilotError } from '../../shared/errors';
import { pollUntil } from '../../shared/time';
import type { WatchdogHandlerContext } from '../define-watchdog';
import type { BrowserSessionView } from '../session-view';

const CLOSE_WAIT_MS = 5000;

/** The events the tabs watchdog emits. */
export const TAB_EVENTS = [AgentFocusChangedEvent, SwitchTabEvent, BrowserStartEvent, BrowserStopEvent] as const;

type Emit = WatchdogHandlerContext<typeof TAB_EVENTS>['emit'];

/**
 * The tabs tabpilot works in, and the agent's focus among them: list, switch, close, attach and release,
 * each from its event's payload to its result. Where tabpilot owns the browser (Node) every page is
 * controlled; in the extension tabs join and leave the controlled set through the host's tab control.
 */
export class TabDesk {
  readonly #session: BrowserSessionView;

  constructor(session: BrowserSessionView) {
    this.#session = session;
  }

  /** `native`: asked by a native client, who sees the person's other tabs only when the config says so. */
  async list(payload: PayloadOf<typeof ListTabsEvent>, native: boolean) {
    const session = this.#session;
    const { targets } = session;
    const focus = targets.focusedTargetId;
    const connected = session.connectionState === 'connected';
    if (connected) {
      await targets.refreshTargetInfo();
    }
    const controlled = connected ? targets.pages() : [];
    const tabs = controlled.map((page) => this.#info(page.targetId, page.targetId === focus));
    const control = session.host.tabControl;
    if (payload.all && control !== undefined && (!native || session.config.native_clients_see_all_tabs)) {
      const known = new Set(controlled.map((page) => page.targetId));
      for (const tab of await control.listAll()) {
        if (!known.has(tab.target_id)) {
          tabs.push({
            target_id: tab.target_id,
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
    return { tabs, focused_target_id: focus ?? null };
  }

  async switch(payload: PayloadOf<typeof SwitchTabEvent>, emit: Emit) {
    const { targets } = this.#session;
    await targets.settled();
    const pages = targets.pages();
    const targetId = payload.target_id ?? pages[pages.length - 1]?.targetId;
    if (targetId === undefined) {
      throw new TabpilotError('NOT_ATTACHED', 'No tab to switch to');
    }
    targets.setFocus(targetId);
    if (payload.activate) {
      await targets.root.send('Target.activateTarget', { targetId });
    }
    const change = this.#session.claimFocusChange();
    if (change !== undefined) {
      await emit(AgentFocusChangedEvent, change);
    }
    return { target_id: targetId, url: targets.target(targetId)?.url ?? '' };
  }

  async close(payload: PayloadOf<typeof CloseTabEvent>) {
    const session = this.#session;
    const { targets } = session;
    const targetId = payload.target_id;
    if (targets.target(targetId) === undefined) {
      throw new TabpilotError('TAB_NOT_FOUND', `No controlled tab ${session.tabIdOf(targetId)}`);
    }
    await targets.closeTarget(targetId);
    await pollUntil(() => (targets.target(targetId) === undefined ? true : undefined), {
      timeoutMs: CLOSE_WAIT_MS,
      onTimeout: () =>
        new TabpilotError('TIMEOUT', `Tab ${session.tabIdOf(targetId)} did not close within ${CLOSE_WAIT_MS} ms`),
    });
    // Focus recovery (another controlled tab, or a blank one where tabpilot owns the browser) is done.
    await targets.settled();
    return { closed_target_id: targetId, focused_target_id: targets.focusedTargetId ?? null };
  }

  async attach(payload: PayloadOf<typeof AttachTabEvent>, emit: Emit): Promise<TabInfo> {
    const session = this.#session;
    if (session.connectionState !== 'connected') {
      await emit(BrowserStartEvent, {});
    }
    const { tab_id: tabId } = payload;
    const control = session.host.tabControl;
    let targetId: string;
    if (control === undefined) {
      targetId = tabId === undefined ? await session.focusedTargetId() : await this.#findTab(tabId);
    } else {
      targetId = await control.attach(tabId === undefined ? undefined : await this.#findTab(tabId));
      await session.targets.waitForPage(targetId);
    }
    await emit(SwitchTabEvent, { target_id: targetId, activate: false });
    return this.#info(targetId, true);
  }

  async release(payload: PayloadOf<typeof ReleaseTabEvent>, emit: Emit) {
    const session = this.#session;
    const { targets } = session;
    const control = session.host.tabControl;
    const { target_id: only } = payload;
    if (control === undefined) {
      if (only !== undefined) {
        throw new TabpilotError(
          'INVALID_PARAMS',
          'release takes no tab_id where tabpilot owns the browser: it lets go of the whole browser (use close for one tab)',
          { details: { field: 'tab_id' } },
        );
      }
      const released = targets.pages().map((page) => page.targetId);
      await emit(BrowserStopEvent, { force: false });
      return { released_target_ids: released };
    }
    const released = only === undefined ? targets.pages().map((page) => page.targetId) : [only];
    for (const targetId of released) {
      if (targets.target(targetId) === undefined) {
        throw new TabpilotError('TAB_NOT_FOUND', `Tab ${session.tabIdOf(targetId)} is not controlled`);
      }
      await control.release(targetId);
    }
    await targets.settled();
    return { released_target_ids: released };
  }

  #info(targetId: string, focused: boolean): TabInfo {
    const page = this.#session.targets.target(targetId);
    const { status, reason } = this.#session.conditions.status(targetId);
    return {
      target_id: targetId,
      url: page?.url ?? '',
      title: page?.title ?? '',
      focused,
      controlled: true,
      status,
      status_reason: reason,
    };
  }

  /** A tab_id of a tab tabpilot may not have seen yet (listed by `tabs {all: true}` before a restart). */
  async #findTab(tabId: string): Promise<string> {
    const session = this.#session;
    const known = session.targetOfTab(tabId);
    if (known !== undefined) {
      return known;
    }
    const match = (await session.host.tabControl?.listAll())?.find(
      (tab) => session.tabIdOf(tab.target_id).toLowerCase() === tabId.toLowerCase(),
    );
    if (match === undefined) {
      throw new TabpilotError('TAB_NOT_FOUND', `No tab with tab_id ${tabId} (list them with "tabs {all: true}")`, {
        details: { tab_id: tabId },
      });
    }
    return match.target_id;
  }
}
