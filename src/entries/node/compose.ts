import type { TabpilotConfig } from '../../browser/config';
import { BrowserSession } from '../../browser/session';
import { aboutBlankWatchdog } from '../../browser/watchdogs/about-blank.watchdog';
import { SHARED_WATCHDOGS } from '../../browser/watchdogs/index';
import { localBrowserWatchdog } from '../../browser/watchdogs/local-browser.watchdog';
import type { AnyWatchdog } from '../../browser/define-watchdog';
import { ChromiumLauncher } from '../../platform/node/chromium-launcher';
import { resolveCdpUrl } from '../../platform/node/endpoint';
import { createNodeHost } from '../../platform/node/node-host';
import { WebSocketTransport } from '../../platform/node/ws-transport';
import type { Logger } from '../../shared/logger';
import { silentLogger } from '../../shared/logger';
import { CommandServer } from '../../tools/command-server';
import { createDefaultRegistry } from '../../tools/default-actions';

export interface NodeSessionOptions {
  config: TabpilotConfig;
  /** A ws:// or http:// CDP endpoint to connect to; undefined launches a local Chromium. */
  cdpUrl?: string;
  logger?: Logger;
}

/** The Node composition root: WebSocket transport, launcher, Node host, the Node watchdog set. */
export function composeNodeSession(options: NodeSessionOptions): { session: BrowserSession; server: CommandServer } {
  const log = options.logger ?? silentLogger;
  const watchdogs: AnyWatchdog[] = [];
  if (options.cdpUrl === undefined) {
    watchdogs.push(localBrowserWatchdog(new ChromiumLauncher(log.child('launcher'))));
  }
  watchdogs.push(aboutBlankWatchdog, ...SHARED_WATCHDOGS);
  // The host reads the output folder from the running config, which settings changes replace.
  const running: { session?: BrowserSession } = {};
  const session = new BrowserSession({
    config: options.config,
    ...(options.cdpUrl === undefined ? {} : { endpoint: options.cdpUrl }),
    openTransport: async (endpoint) => WebSocketTransport.connect(await resolveCdpUrl(endpoint)),
    host: createNodeHost(() => (running.session?.config ?? options.config).output_dir),
    logger: log,
    watchdogs,
    name: 'node',
  });
  running.session = session;
  return { session, server: new CommandServer(session, createDefaultRegistry(), log.child('commands')) };
}
