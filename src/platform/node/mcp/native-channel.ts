import type { CommandResponse } from '../../../protocol/commands';
import { ClientName } from '../../../protocol/native-messages';
import { errorMessageOf } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import { requestWithCancel, type ChannelRequest, type CommandChannel } from '../../../tools/mcp/command-channel';
import { HostClient } from '../native/host-client';

export interface NativeChannelOptions {
  /** The MCP client's own name (from initialize): the panel shows this server as `mcp:<name>`. */
  clientName: string | undefined;
  stateDir: string;
  /** The host of this browser profile, when several browsers run one. */
  userDataDir: string | undefined;
  log: Logger;
  /** How long a dropped connection waits for the host the extension starts again. */
  reconnectMs?: number;
}

/** How long a call waits for the host to come back when the connection drops (the extension restarts it). */
const RECONNECT_MS = 15_000;

/**
 * The MCP client's name as a native client name: `mcp:` and at most 48 letters, digits, spaces and
 * `. _ -` (anything else becomes `-`), so `Claude Code`, `cursor-vscode` and `zed/1` all get one.
 */
export function nativeClientName(mcpClient: string | undefined): ClientName {
  const cleaned = (mcpClient ?? '')
    .replace(/[^A-Za-z0-9._ -]/g, '-')
    .trim()
    .slice(0, 48)
    .trim();
  return ClientName.parse(`mcp:${cleaned === '' ? 'client' : cleaned}`);
}

/**
 * The default mode's way in: the person's browser through the native host, as one named client with
 * its own tabs (the same client `tabpilot connect --extension` uses). Every call is answered: when the
 * host or the browser goes away mid-call the open calls are answered DISCONNECTED, and the next call
 * waits a moment for the host the extension starts again, or connects anew.
 */
export async function openNativeChannel(options: NativeChannelOptions): Promise<CommandChannel> {
  const name = nativeClientName(options.clientName);
  const connect = async (): Promise<HostClient> => {
    const client = await HostClient.connect({
      client: name,
      stateDir: options.stateDir,
      reconnectMs: options.reconnectMs ?? RECONNECT_MS,
      ...(options.userDataDir === undefined ? {} : { userDataDir: options.userDataDir }),
    });
    client.onNotice((notice) => options.log.warn(`host: ${notice.message}`));
    client.onState((state) => options.log.info(`connection to the host ${state}`));
    client.onMessage((message) => {
      if ('ok' in message && typeof message.id === 'string') {
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      }
    });
    options.log.info(`connected to the tabpilot host as ${name}`);
    return client;
  };
  const waiting = new Map<string, (response: CommandResponse) => void>();
  let current = await connect();
  let id = 0;
  const send = async (request: ChannelRequest) => {
    if (current.state === 'closed') {
      // The host did not come back within the reconnect window: look for one again, now.
      try {
        current = await connect();
      } catch (error) {
        return { id: request.id, ok: false, error: { code: 'DISCONNECTED', message: errorMessageOf(error) } } as const;
      }
    }
    const client = current;
    return new Promise<CommandResponse>((resolve) => {
      waiting.set(request.id, resolve);
      client.sendLine(JSON.stringify(request));
    });
  };
  return {
    request: (action, params, requestOptions) =>
      requestWithCancel(send, () => `mcp-${process.pid}-${++id}`, action, params, requestOptions),
    close: () => {
      current.close();
      return Promise.resolve();
    },
  };
}
