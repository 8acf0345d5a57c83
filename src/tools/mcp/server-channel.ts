import type { CommandServer } from '../command-server';
import type { ClientInfo } from '../registry';
import { requestWithCancel, type CommandChannel } from './command-channel';

/** A channel into a CommandServer in this process: the MCP server is one of its named clients. */
export function serverChannel(server: CommandServer, client: ClientInfo): CommandChannel {
  const connection = server.connect(client, { send: () => undefined });
  let id = 0;
  return {
    request: (action, params, options) =>
      requestWithCancel(
        (request) => connection.handle(request),
        () => `mcp-${++id}`,
        action,
        params,
        options,
      ),
    close: () => {
      connection.close({ cancelRunning: true });
      return Promise.resolve();
    },
  };
}
