import { installAgentActions } from '../../agent/agent-actions';
import type { AgentConfig } from '../../agent/agent.config';
import { MemoryRunStore } from '../../agent/run-store';
import { MemoryStepShots } from '../../agent/step-shots';
import { SERVED_CONFIG, type TabpilotConfig } from '../../agent/tabpilot-config';
import { BrowserSession } from '../../browser/session';
import { watchdogsFor } from '../../browser/watchdogs/index';
import { ChromiumLauncher } from '../../platform/node/chromium-launcher';
import { resolveCdpUrl } from '../../platform/node/endpoint';
import { createNodeHost } from '../../platform/node/node-host';
import { isPipeEndpoint } from '../../platform/node/pipe-transport';
import { WebSocketTransport } from '../../platform/node/ws-transport';
import type { Logger } from '../../shared/logger';
import { silentLogger } from '../../shared/logger';
import { ClientGate } from '../../tools/client-gate';
import { ClientLeases } from '../../tools/client-leases';
import { CommandServer } from '../../tools/command-server';
import { createDefaultRegistry } from '../../tools/actions';
import { answerInPageStop } from '../../tools/in-page-stop';

export interface NodeSessionOptions {
  config: TabpilotConfig;
  /**
   * A ws:// or http:// CDP endpoint to connect to (a browser's, or a browser pool's with its token in the
   * query string); undefined launches a local Chromium.
   */
  cdpUrl?: string;
  logger?: Logger;
  /** Names the session's bus in logs and history: several sessions in one process tell theirs apart. */
  name?: string;
}

/**
 * Whether a Node session's browser may hold the person's own things: one at a cdp_url (their Chrome,
 * started with a debugging port), or one launched on a profile they named. A launch on a temporary
 * profile holds nothing of theirs, and is removed on stop.
 */
export function browserMayBeThePersons(cdpUrl: string | undefined, config: TabpilotConfig): boolean {
  return cdpUrl !== undefined || config.launch.user_data_dir !== null;
}

/**
 * The Node composition root: WebSocket transport, launcher, Node host, the Node watchdog set. Each call
 * builds an independent session (its own bus, connection and browser), so one process can drive several
 * browsers at once: call it once per cdp_url, or several times with one pool's URL (one browser each).
 */
export function composeNodeSession(options: NodeSessionOptions): {
  session: BrowserSession<TabpilotConfig>;
  server: CommandServer;
} {
  const log = options.logger ?? silentLogger;
  const launcher = options.cdpUrl === undefined ? new ChromiumLauncher(log.child('launcher')) : undefined;
  const watchdogs = watchdogsFor('node', launcher === undefined ? {} : { launcher });
  // The host reads the output folder from the running config, which settings changes replace.
  const running: { session?: BrowserSession<TabpilotConfig> } = {};
  const session = new BrowserSession({
    config: options.config,
    ...(options.cdpUrl === undefined ? {} : { endpoint: options.cdpUrl }),
    // A launch without a port announces its pipe; a cdp_url (a pool's included) stays a WebSocket.
    openTransport: async (endpoint, { signal }) =>
      launcher !== undefined && isPipeEndpoint(endpoint)
        ? launcher.openPipe(endpoint)
        : WebSocketTransport.connect(await resolveCdpUrl(endpoint, { signal }), { signal }),
    host: createNodeHost(() => (running.session?.config ?? options.config).output_dir),
    logger: log,
    watchdogs,
    name: options.name ?? 'node',
  });
  running.session = session;
  const server = new CommandServer(session, createDefaultRegistry(), SERVED_CONFIG, log.child('commands'));
  // Several clients of one session (native or MCP ones) each keep their own tabs, as in the extension.
  // A client's tab in a window of its own: a background tab beside another client's would be hidden.
  const gate = new ClientGate(session, server.registry, {
    leases: new ClientLeases(),
    ownWindows: true,
    log: log.child('gate'),
  });
  gate.install();
  server.useGate(gate);
  // The session holds the whole config (a test may replace it, the agent's part included): the agent reads its part there.
  const agentConfig = (): AgentConfig => session.config.agent;
  installAgentActions(server, {
    config: agentConfig,
    store: new MemoryRunStore(() => agentConfig().max_kept_runs),
    shots: new MemoryStepShots(),
    apiKey: (provider) => {
      const key = process.env[provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY'];
      return Promise.resolve(key === undefined || key === '' ? null : key);
    },
    personsBrowser: () => browserMayBeThePersons(options.cdpUrl, session.config),
    log: log.child('agent'),
  });
  answerInPageStop({ session, server, log: log.child('in-page-stop') });
  return { session, server };
}
