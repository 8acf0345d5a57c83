import type { Runtime } from 'webextension-polyfill';
import { shortId } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import type { CommandServer } from '../../tools/command-server';
import type { ClientInfo } from '../../tools/registry';

export const PANEL_PORT_NAME = 'tabpilot-panel';

export interface PortRuntime {
  readonly id: string;
  getURL(path: string): string;
  readonly onConnect: { addListener(listener: (port: Runtime.Port) => void): void };
}

/**
 * Only the extension's own pages may send commands (DESIGN §5): a port is accepted when its sender
 * is this extension and its URL is one of our pages. Web pages cannot connect at all (there is no
 * externally_connectable) and other extensions arrive on onConnectExternal, which we do not serve.
 */
export function isOwnPage(
  sender: Runtime.MessageSender | undefined,
  runtime: Pick<PortRuntime, 'id' | 'getURL'>,
): boolean {
  return (
    sender !== undefined &&
    sender.id === runtime.id &&
    typeof sender.url === 'string' &&
    sender.url.startsWith(runtime.getURL(''))
  );
}

/** Serves the command protocol on runtime ports from the panel (and other pages of ours). */
export function servePanelPorts(options: {
  runtime: PortRuntime;
  server: CommandServer;
  ready: Promise<unknown>;
  log: Logger;
}): void {
  const { runtime, server, ready, log } = options;
  runtime.onConnect.addListener((port) => {
    if (port.name !== PANEL_PORT_NAME || !isOwnPage(port.sender, runtime)) {
      log.warn('refused a port from outside the extension', { name: port.name, url: port.sender?.url });
      port.disconnect();
      return;
    }
    const client: ClientInfo = { id: shortId(6), kind: 'panel' };
    let open = true;
    const connection = server.connect(client, {
      send: (message) => {
        if (open) {
          port.postMessage(message);
        }
      },
    });
    port.onMessage.addListener((message: unknown) => {
      void ready
        .then(() => connection.handle(message))
        .then((response) => {
          if (open) {
            port.postMessage(response);
          }
        });
    });
    port.onDisconnect.addListener(() => {
      open = false;
      connection.close();
    });
  });
}
