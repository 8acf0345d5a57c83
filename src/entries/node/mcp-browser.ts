import type { TabpilotConfig } from '../../agent/tabpilot-config';
import type { Logger } from '../../shared/logger';
import { errorMessageOf } from '../../shared/errors';
import type { CommandChannel } from '../../tools/mcp/command-channel';
import { serverChannel } from '../../tools/mcp/server-channel';
import { composeNodeSession } from './compose';
import { fieldOf } from '../../shared/narrow';

export interface NodeBrowserOptions {
  config: TabpilotConfig;
  /** Undefined launches a Chromium of the server's own. */
  cdpUrl: string | undefined;
  client: string;
  log: Logger;
}

/**
 * The MCP server's own browser session in this process: a Chromium it launched, or one at a cdp_url.
 * At a cdp_url other clients (another MCP server, a person) may share the browser, so the server opens
 * a tab of its own to work in, and closes the tabs it opened when it leaves; the browser keeps running.
 */
export async function openNodeBrowser(options: NodeBrowserOptions): Promise<CommandChannel> {
  const { session, server } = composeNodeSession({
    config: options.config,
    ...(options.cdpUrl === undefined ? {} : { cdpUrl: options.cdpUrl }),
    logger: options.log,
    name: options.client,
  });
  try {
    await session.start();
  } catch (error) {
    await session.stop().catch((stopError: unknown) => {
      options.log.warn('stop after a failed start failed', { error: errorMessageOf(stopError) });
    });
    throw error;
  }
  const inner = serverChannel(server, { id: options.client, kind: 'mcp' });
  if (options.cdpUrl === undefined) {
    await adoptFirstTab(inner, options.log);
    return {
      request: (action, params, requestOptions) => inner.request(action, params, requestOptions),
      close: async () => {
        await inner.close();
        await session.stop();
      },
    };
  }
  const own = new Set<string>();
  // Without new_tab: a client with no tab gets one of its own from the gate, in a window of its own.
  const opened = await inner.request('navigate', { url: 'about:blank' });
  const openedId = opened.ok ? fieldOf(opened.result, 'tab_id') : undefined;
  if (typeof openedId === 'string') {
    own.add(openedId);
  } else if (!opened.ok) {
    options.log.warn('could not open a tab of its own', { error: opened.error.message });
  }
  return {
    request: async (action, params, requestOptions) => {
      const response = await inner.request(action, params, requestOptions);
      if (response.ok) {
        for (const tab of openedTabs(action, params, response.result)) {
          own.add(tab);
        }
      }
      return response;
    },
    close: async () => {
      const tabs = await inner.request('tabs', {});
      const open = tabs.ok ? tabIdsIn(tabs.result) : [];
      for (const tab of open.filter((id) => own.has(id))) {
        const closed = await inner.request('close', { tab_id: tab });
        if (!closed.ok) {
          options.log.warn('could not close its tab', { tab_id: tab, error: closed.error.message });
        }
      }
      await inner.close();
      // Leaves the browser running: a session at a cdp_url only disconnects.
      await session.stop();
    },
  };
}

/** The tabs an answer says the call opened: a navigate to a new tab, a click's popup. */
function openedTabs(action: string, params: Record<string, unknown>, result: unknown): string[] {
  const tabId = fieldOf(result, 'tab_id');
  const openedId = fieldOf(result, 'opened_tab_id');
  const tabs: string[] = [];
  if (action === 'navigate' && params['new_tab'] === true && typeof tabId === 'string') {
    tabs.push(tabId);
  }
  if (typeof openedId === 'string') {
    tabs.push(openedId);
  }
  return tabs;
}

/** The ids of the tabs a `tabs` answer lists, in its order. */
function tabIdsIn(result: unknown): string[] {
  const tabs = fieldOf(result, 'tabs');
  const list: unknown[] = Array.isArray(tabs) ? tabs : [];
  return list.map((tab) => fieldOf(tab, 'tab_id')).filter((id) => typeof id === 'string');
}

/**
 * In a Chromium of its own the server works in the tab the browser opened, in front, instead of leaving
 * it blank beside a tab of its own that its first navigate would open.
 */
async function adoptFirstTab(channel: CommandChannel, log: Logger): Promise<void> {
  const tabs = await channel.request('tabs', {});
  const first = tabs.ok ? tabIdsIn(tabs.result)[0] : undefined;
  if (first === undefined) {
    log.warn('no tab to work in at start: the first navigate opens one', {
      error: tabs.ok ? 'the browser has no tab' : tabs.error.message,
    });
    return;
  }
  const taken = await channel.request('switch', { tab_id: first, activate: true });
  if (!taken.ok) {
    log.warn('could not take the first tab', { tab_id: first, error: taken.error.message });
  }
}
