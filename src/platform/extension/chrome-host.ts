import type { BrowserHost, FileSaver, HostTab, TabControl, VideoRecorderPort } from '../../browser/host';
import type { PermissionGranter } from '../../browser/permissions/permission-granter';
import { TabpilotError, errorMessageOf } from '../../shared/errors';
import type { ChromeApi } from './chrome-api';
import { attachRefusalCode } from './attach-refusal';
import type { TabRouter } from './tab-router';

/**
 * The extension's BrowserHost: the person's tabs through chrome.tabs, control through the TabRouter.
 */
export function createChromeHost(
  chrome: ChromeApi,
  router: TabRouter,
  files?: FileSaver,
  permissions?: PermissionGranter,
  video?: VideoRecorderPort,
): BrowserHost {
  const tabControl: TabControl = {
    async listAll(): Promise<HostTab[]> {
      const [tabs, targets] = await Promise.all([chrome.tabs.query({}), chrome.debugger.getTargets()]);
      const targetOfTab = new Map(targets.filter((t) => t.tabId !== undefined).map((t) => [t.tabId, t.id]));
      const out: HostTab[] = [];
      for (const tab of tabs) {
        const targetId = tab.id === undefined ? undefined : targetOfTab.get(tab.id);
        if (targetId !== undefined) {
          out.push({ target_id: targetId, title: tab.title ?? '', url: tab.url ?? '', active: tab.active });
        }
      }
      return out;
    },

    async attach(targetId: string | undefined): Promise<string> {
      let tabId: number | undefined;
      if (targetId === undefined) {
        const [active] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
        tabId = active?.id;
        if (tabId === undefined) {
          throw new TabpilotError('TAB_NOT_FOUND', 'There is no active tab to attach to');
        }
      } else {
        tabId = (await chrome.debugger.getTargets()).find((target) => target.id === targetId)?.tabId;
        if (tabId === undefined) {
          throw new TabpilotError('TAB_NOT_FOUND', `No tab with target id ${targetId}`);
        }
      }
      try {
        return await router.attachTab(tabId);
      } catch (error) {
        throw new TabpilotError(attachRefusalCode(error), errorMessageOf(error), { cause: error });
      }
    },

    async release(targetId: string): Promise<void> {
      const tabId = router.tabIdOfTarget(targetId);
      if (tabId === undefined) {
        throw new TabpilotError('TAB_NOT_FOUND', `Tab ${targetId} is not controlled`);
      }
      await router.detachTab(tabId, 'released');
    },
  };
  return {
    tabControl,
    ...(files === undefined ? {} : { files }),
    ...(permissions === undefined ? {} : { permissions }),
    ...(video === undefined ? {} : { video }),
  };
}
