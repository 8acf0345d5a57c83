import { TabpilotError } from '../../shared/errors';
import { pollUntil } from '../../shared/time';
import { defineWatchdog } from '../define-watchdog';
import { BrowserStartEvent, BrowserStopEvent } from '../../protocol/events/lifecycle.events';
import {
  AgentFocusChangedEvent,
  AttachTabEvent,
  CloseTabEvent,
  ListTabsEvent,
  ReleaseTabEvent,
  SwitchTabEvent,
  type TabInfo,
} from '../../protocol/events/tabs.events';

const CLOSE_WAIT_MS = 5000;

/**
 * Which tabs tabpilot works in, and which one has the agent's focus: list, switch, close, attach and
 * release. Where tabpilot owns the browser (Node) every page is controlled: attach (re)connects and
 * focuses a tab, and release lets go of the browser and leaves it running. In the extension they add
 * and remove tabs from the controlled set through the host's tab control.
 */
export const tabsWatchdog = defineWatchdog({
  name: 'tabs',
  listensTo: [ListTabsEvent, SwitchTabEvent, CloseTabEvent, AttachTabEvent, ReleaseTabEvent],
  emits: [AgentFocusChangedEvent, SwitchTabEvent, BrowserStartEvent, BrowserStopEvent],
  setup: (ctx) => {
    const session = ctx.session;
    const targets = session.targets;

    const info = (targetId: string, focused: boolean): TabInfo => {
      const page = targets.target(targetId);
      const { status, reason } = session.conditions.status(targetId);
      return {
        target_id: targetId,
        url: page?.url ?? '',
        title: page?.title ?? '',
        focused,
        controlled: true,
        status,
        status_reason: reason,
      };
    };

    /** A tab_id of a tab tabpilot may not have seen yet (listed by `tabs {all: true}` before a restart). */
    const findTab = async (tabId: string): Promise<string> => {
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
    };

    return {
      ListTabsEvent: async (event) => {
        const focus = targets.focusedTargetId;
        const connected = session.connectionState === 'connected';
        if (connected) {
          await targets.refreshTargetInfo();
        }
        const controlled = connected ? targets.pages() : [];
        const tabs = controlled.map((page) => info(page.targetId, page.targetId === focus));
        const native = event.meta.source?.startsWith('native:') === true;
        const control = session.host.tabControl;
        if (event.payload.all && control !== undefined && (!native || session.config.native_clients_see_all_tabs)) {
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
      },

      SwitchTabEvent: async (event, hctx) => {
        await targets.settled();
        const pages = targets.pages();
        const targetId = event.payload.target_id ?? pages[pages.length - 1]?.targetId;
        if (targetId === undefined) {
          throw new TabpilotError('NOT_ATTACHED', 'No tab to switch to');
        }
        targets.setFocus(targetId);
        if (event.payload.activate) {
          await targets.root.send('Target.activateTarget', { targetId });
        }
        const change = session.claimFocusChange();
        if (change !== undefined) {
          await hctx.emit(AgentFocusChangedEvent, change);
        }
        return { target_id: targetId, url: targets.target(targetId)?.url ?? '' };
      },

      CloseTabEvent: async (event) => {
        const targetId = event.payload.target_id;
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
      },

      AttachTabEvent: async (event, hctx) => {
        if (session.connectionState !== 'connected') {
          await hctx.emit(BrowserStartEvent, {});
        }
        const { tab_id: tabId } = event.payload;
        const control = session.host.tabControl;
        let targetId: string;
        if (control === undefined) {
          targetId = tabId === undefined ? await session.focusedTargetId() : await findTab(tabId);
        } else {
          targetId = await control.attach(tabId === undefined ? undefined : await findTab(tabId));
          await targets.waitForPage(targetId);
        }
        await hctx.emit(SwitchTabEvent, { target_id: targetId, activate: false });
        return info(targetId, true);
      },

      ReleaseTabEvent: async (event, hctx) => {
        const control = session.host.tabControl;
        const { target_id: only } = event.payload;
        if (control === undefined) {
          if (only !== undefined) {
            throw new TabpilotError(
              'INVALID_PARAMS',
              'release takes no tab_id where tabpilot owns the browser: it lets go of the whole browser (use close for one tab)',
              { details: { field: 'tab_id' } },
            );
          }
          const released = targets.pages().map((page) => page.targetId);
          await hctx.emit(BrowserStopEvent, { force: false });
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
      },
    };
  },
});
