import type { CdpIncoming, CdpRequest } from '../../protocol/cdp';
import type { CdpTransport, TransportCapabilities } from '../../cdp/transport';
import { TabpilotError } from '../../shared/errors';
import { toRouterError, type TabRouter } from './tab-router';

const CAPABILITIES: TransportCapabilities = {
  browserDomain: false,
  ownsBrowser: false,
  reconnect: false,
  browserPages: false,
};

/**
 * CdpTransport over chrome.debugger: every message goes through the TabRouter's browser-level facade.
 * Closing it (stop) detaches every controlled tab.
 */
export class DebuggerTransport implements CdpTransport {
  readonly capabilities = CAPABILITIES;
  onmessage: ((message: CdpIncoming) => void) | undefined;
  onclose: ((reason: string) => void) | undefined;
  readonly #router: TabRouter;
  #closed = false;

  constructor(router: TabRouter) {
    this.#router = router;
    router.setSink((message) => {
      // Deliver asynchronously, like a socket, so a response never overtakes the code that sent it.
      queueMicrotask(() => this.#deliver(message));
    });
  }

  send(message: CdpRequest): void {
    if (this.#closed) {
      throw new TabpilotError('DISCONNECTED', 'chrome.debugger transport is closed');
    }
    this.#router.handle(message).then(
      (result) => this.#deliver(withSession({ id: message.id, result: result ?? {} }, message.sessionId)),
      (error: unknown) =>
        this.#deliver(withSession({ id: message.id, error: toRouterError(error).payload }, message.sessionId)),
    );
  }

  close(reason = 'closed by client'): void {
    if (this.#closed) {
      return;
    }
    this.#closed = true;
    this.#router.setSink(undefined);
    void this.#router.detachAll(reason);
    this.onclose?.(reason);
  }

  #deliver(message: CdpIncoming): void {
    if (!this.#closed) {
      this.onmessage?.(message);
    }
  }
}

function withSession<T extends object>(message: T, sessionId: string | undefined): T & { sessionId?: string } {
  return sessionId === undefined ? message : { ...message, sessionId };
}
