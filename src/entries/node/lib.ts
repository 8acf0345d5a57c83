/**
 * tabpilot's library API (`import { connectExtension, startBrowser } from 'tabpilot'`): the command
 * protocol the CLI, the MCP server and native clients speak, from a Node program. Two ways in: your own
 * browser through the extension's native host, or a Chromium of tabpilot's own over CDP. Every type here
 * is written out (none re-exported from inside), so the published declarations stand alone; the in-process
 * actor is a test driver under test/actor, as it calls the routines beside the client gate.
 */
import { ClientName } from '../../protocol/native-messages';
import type { ServerMessage } from '../../protocol/commands';
import { loadConfig } from '../../platform/node/config-file';
import { HostClient } from '../../platform/node/native/host-client';
import { stateDir as defaultStateDir } from '../../platform/node/native/state-dir';
import { errorCodeOf, errorMessageOf } from '../../shared/errors';
import { silentLogger } from '../../shared/logger';
import { composeNodeSession } from './compose';

/** One action's answer: its result, or why it failed (codes as in the protocol's docs). */
export type ActionResponse =
  | { id: number | string | null; ok: true; result: unknown }
  | {
      id: number | string | null;
      ok: false;
      error: { code: string; message: string; details?: Record<string, unknown> };
    };

/** A browser you send actions to: `request('navigate', { url })`, `request('state')`, `request('describe')`. */
export interface TabpilotClient {
  request(action: string, params?: Record<string, unknown>): Promise<ActionResponse>;
  close(): Promise<void>;
}

export interface ExtensionOptions {
  /** The client name the extension shows and keeps tabs for: tabpilot (default) or tabpilot:<label>. */
  client?: string;
  /** The host of this browser profile, when several browsers run the extension. */
  userDataDir?: string;
  /** The host's state folder (default: TABPILOT_STATE_DIR, else the usual one). */
  stateDir?: string;
  /** How long to wait for a new host after the connection drops (default 0: give up at once). */
  reconnectMs?: number;
}

/** Your own browser, through the tabpilot extension and its native host (`tabpilot install-host` first). */
export async function connectExtension(options: ExtensionOptions = {}): Promise<TabpilotClient> {
  const client = await HostClient.connect({
    client: ClientName.parse(options.client ?? 'tabpilot'),
    stateDir: options.stateDir ?? defaultStateDir(),
    ...(options.userDataDir === undefined ? {} : { userDataDir: options.userDataDir }),
    reconnectMs: options.reconnectMs ?? 0,
  });
  return {
    request: (action, params) => client.request(action, params),
    close: () => {
      client.close();
      return Promise.resolve();
    },
  };
}

export interface BrowserOptions {
  /** Attach to this running Chromium (ws:// or http://host:port) instead of launching one. */
  cdpUrl?: string;
  /** A tabpilot config file (JSON), as `tabpilot launch --config` takes. */
  configFile?: string;
  /** Config keys in the file's shape, each replacing the file's: `{ launch: { headless: true, args: [...] } }`. */
  config?: Record<string, unknown>;
}

/** A Chromium of tabpilot's own (launched, or joined at `cdpUrl`), driven in this process over CDP. */
export async function startBrowser(options: BrowserOptions = {}): Promise<TabpilotClient> {
  const config = loadConfig({
    path: options.configFile,
    env: process.env,
    log: silentLogger,
    overrides: (raw) => ({ ...raw, ...options.config }),
  });
  const { session, server } = composeNodeSession({
    config,
    ...(options.cdpUrl === undefined ? {} : { cdpUrl: options.cdpUrl }),
  });
  try {
    await session.start();
  } catch (error) {
    // A browser launched before the failure is not left running.
    await session.stop();
    session.dispose();
    throw error;
  }
  const waiting = new Map<number, (response: ActionResponse) => void>();
  const connection = server.connect(
    { id: `lib-${process.pid}`, kind: 'cli' },
    {
      send: (message: ServerMessage) => {
        // Events are not asked for here; a response goes to the request that waits for its id.
        if ('ok' in message && typeof message.id === 'number') {
          waiting.get(message.id)?.(message);
          waiting.delete(message.id);
        }
      },
    },
  );
  let nextId = 0;
  return {
    request: (action, params) => {
      const id = ++nextId;
      return new Promise<ActionResponse>((resolve) => {
        waiting.set(id, resolve);
        connection
          .handleLine(JSON.stringify(params === undefined ? { id, action } : { id, action, params }))
          .catch((error: unknown) => {
            // The server answers every line itself; should it throw instead, the request still gets an answer.
            waiting.delete(id);
            resolve({ id, ok: false, error: { code: errorCodeOf(error), message: errorMessageOf(error) } });
          });
      });
    },
    close: async () => {
      connection.close();
      await session.stop();
      // The watchdogs' timers go too: a program that is done exits without process.exit.
      session.dispose();
    },
  };
}
