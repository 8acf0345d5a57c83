import WebSocket from 'ws';
import type { CdpIncoming, CdpRequest } from '../../protocol/cdp';
import type { CdpTransport, TransportCapabilities } from '../../cdp/transport';
import { TabpilotError } from '../../shared/errors';

const CAPABILITIES: TransportCapabilities = {
  browserDomain: true,
  ownsBrowser: true,
  reconnect: true,
  browserPages: true,
};
/** DOM snapshots of big pages run to tens of MB; browser-use allows 200 MB. */
const MAX_PAYLOAD = 256 * 1024 * 1024;

function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) {
    return Buffer.concat(data).toString('utf8');
  }
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

/** CDP over a WebSocket to the browser endpoint (Node). */
export class WebSocketTransport implements CdpTransport {
  readonly capabilities = CAPABILITIES;
  onmessage: ((message: CdpIncoming) => void) | undefined;
  onclose: ((reason: string) => void) | undefined;
  readonly #socket: WebSocket;
  #closed = false;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (data: WebSocket.RawData) => {
      let message: CdpIncoming;
      try {
        message = JSON.parse(rawText(data)) as CdpIncoming;
      } catch {
        // A frame that is not JSON is not CDP; there is nothing to route it to.
        return;
      }
      this.onmessage?.(message);
    });
    socket.on('close', (code, reason) =>
      this.#finish(`socket closed (${code}${reason.length > 0 ? `: ${reason.toString()}` : ''})`),
    );
    socket.on('error', (error) => this.#finish(`socket error: ${error.message}`));
  }

  static connect(url: string, timeoutMs = 15_000): Promise<WebSocketTransport> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, {
        perMessageDeflate: false,
        maxPayload: MAX_PAYLOAD,
        handshakeTimeout: timeoutMs,
      });
      const onError = (error: Error): void => {
        socket.removeAllListeners();
        socket.terminate();
        reject(new TabpilotError('DISCONNECTED', `Cannot connect to ${url}: ${error.message}`, { cause: error }));
      };
      socket.once('error', onError);
      socket.once('open', () => {
        socket.off('error', onError);
        resolve(new WebSocketTransport(socket));
      });
    });
  }

  send(message: CdpRequest): void {
    if (this.#closed) {
      throw new TabpilotError('DISCONNECTED', 'WebSocket is closed');
    }
    this.#socket.send(JSON.stringify(message));
  }

  close(reason = 'closed by client'): void {
    if (this.#closed) {
      return;
    }
    this.#socket.close(1000, reason.slice(0, 100));
    this.#finish(reason);
  }

  #finish(reason: string): void {
    if (this.#closed) {
      return;
    }
    this.#closed = true;
    this.onclose?.(reason);
  }
}
