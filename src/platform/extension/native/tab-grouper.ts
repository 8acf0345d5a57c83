import type { TabGrouper } from '../../../tools/client-gate';

/** The slice of chrome.tabs / chrome.tabGroups the grouper uses. */
export interface TabGroupApi {
  group(options: { tabIds: number; groupId?: number; createProperties?: { windowId?: number } }): Promise<number>;
  ungroup(tabIds: number[]): Promise<void>;
  update(groupId: number, properties: { title: string; color: GroupColor; collapsed: boolean }): Promise<unknown>;
  windowOf(tabId: number): Promise<number>;
  groupWindow(groupId: number): Promise<number | undefined>;
}

const COLORS = ['blue', 'purple', 'cyan', 'green', 'orange', 'pink', 'yellow', 'red', 'grey'] as const;
export type GroupColor = (typeof COLORS)[number];

/** One colour per client name, the same every time. */
export function colorFor(client: string): GroupColor {
  let hash = 0;
  for (let i = 0; i < client.length; i++) {
    hash = (hash * 31 + client.charCodeAt(i)) >>> 0;
  }
  return COLORS[hash % COLORS.length] ?? 'grey';
}

/**
 * Each client's tabs in one tab group per window, titled with the client's name, so the person sees
 * at a glance which program works where. The group is found again for the client's next tab (in the
 * same window) and left to Chrome when its last tab goes.
 */
export function chromeTabGrouper(api: TabGroupApi, tabIdOf: (targetId: string) => number | undefined): TabGrouper {
  const groups = new Map<string, number>();
  const grouped = new Map<string, number>();
  return {
    async group(targetId, client) {
      const tabId = tabIdOf(targetId);
      if (tabId === undefined) {
        return;
      }
      const windowId = await api.windowOf(tabId);
      const known = groups.get(`${client}@${windowId}`);
      const usable = known !== undefined && (await api.groupWindow(known)) === windowId ? known : undefined;
      const groupId = await api.group(
        usable === undefined ? { tabIds: tabId, createProperties: { windowId } } : { tabIds: tabId, groupId: usable },
      );
      groups.set(`${client}@${windowId}`, groupId);
      grouped.set(targetId, tabId);
      if (usable === undefined) {
        await api.update(groupId, { title: client, color: colorFor(client), collapsed: false });
      }
    },
    async ungroup(targetId) {
      const tabId = grouped.get(targetId) ?? tabIdOf(targetId);
      grouped.delete(targetId);
      if (tabId !== undefined) {
        await api.ungroup([tabId]);
      }
    },
  };
}
