import type { CommandError } from '../../protocol/commands';
import { errorMessageOf } from '../../shared/errors';
import type { ChromeApi } from './chrome-api';
import { attachRefusalCode } from './attach-refusal';
import { assertAttachable } from './router-errors';

/**
 * "Attach current tab" from a side panel means the active tab of the panel's own window (the panel is
 * per window). Resolves it to a protocol tab_id, or says plainly why it cannot be attached.
 */
export async function activeTabOfWindow(
  chrome: ChromeApi,
  windowId: number,
  tabIdOf: (targetId: string) => string,
): Promise<{ tab_id: string } | { error: CommandError }> {
  const [tab] = await chrome.tabs.query({ active: true, windowId });
  if (tab?.id === undefined) {
    return { error: { code: 'TAB_NOT_FOUND', message: 'This window has no active tab to attach.' } };
  }
  try {
    // A tab still loading has its address in pendingUrl only.
    assertAttachable({ ...tab, url: tab.url || tab.pendingUrl || '' }, chrome.extensionOrigin);
  } catch (error) {
    const code = attachRefusalCode(error);
    return {
      error: {
        code,
        message:
          code === 'FORBIDDEN'
            ? `${errorMessageOf(error)} (the Actions view runs both). Attach current tab takes the active tab of this window, which here is the panel itself.`
            : `${errorMessageOf(error)}. Chrome does not let extensions debug chrome:// pages, the Web Store or other extensions' pages: open a web page in this tab (or switch to one) and attach again.`,
      },
    };
  }
  const target = (await chrome.debugger.getTargets()).find((candidate) => candidate.tabId === tab.id);
  if (target === undefined) {
    return { error: { code: 'TAB_NOT_FOUND', message: `The active tab (${tab.url ?? ''}) has no debuggable page.` } };
  }
  return { tab_id: tabIdOf(target.id) };
}
