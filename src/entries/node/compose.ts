import type { TabpilotConfig } from '../../browser/config';
import { BrowserSession } from '../../browser/session';
import { watchdogsFor } from '../../browser/watchdogs/index';
import { ChromiumLauncher } from '../../platform/node/chromium-launcher';
import { resolveCdpUrl } from '../../platform/node/endpoint';
import { createNodeHost } from '../../platform/node/node-host';
import { WebSocketTransport } from '../../platform/node/ws-transport';
import type { Logger } from '../../shared/logger';
import { silentLogger } from '../../shared/logger';
import { CommandServer } from '../../tools/command-server';
import { createDefaultRegistry } from '../../tools/actions';

export interface NodeSessionOptions {
  config: TabpilotConfig;
  /** A ws:// or http:// CDP endpoint to connect to; undefined launches a local Chromium. */
  cdpUrl?: string;
  logger?: Logger;
}

/** The Node composition root: WebSocket transport, launcher, Node host, the Node watchdog set. */
export function composeNodeSession(options: NodeSessionOptions): { session: BrowserSession; server: CommandServer } {
  const log = options.logger ?? silentLogger;
  const watchdogs = watchdogsFor(
    'node',
    options.cdpUrl === undefined ? { launcher: new ChromiumLauncher(log.child('launcher')) } : {},
  );
  const session = new BrowserSession({
    config: options.config,
    ...(options.cdpUrl === undefined ? {} : { endpoint: options.cdpUrl }),
    openTransport: async (endpoint) => WebSocketTransport.connect(await resolveCdpUrl(endpoint)),
    host: createNodeHost(() => options.config.output_dir),
    logger: log,
    watchdogs,
    name: 'node',
  });
  return { session, server: new CommandServer(session, createDefaultRegistry(), log.child('commands')) };
}
