import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { EndpointUnreachableError } from '../../cdp/endpoint-errors';
import { isCdpIncoming, type CdpIncoming, type CdpRequest } from '../../protocol/cdp';
import type { CdpTransport, TransportCapabilities } from '../../cdp/transport';
import { TabpilotError, errorCodeOf, errorMessageOf } from '../../shared/errors';
import { redactUrl } from '../../shared/redact-url';
import { abortReason } from '../../shared/time';
import { httpRefusal, urlNamesOneBrowser } from './endpoint';

/** The handshake's bound when the caller gives no signal (with one, the caller's budget bounds it). */
const DEFAULT_HANDSHAKE_TIMEOUT_MS = 30_000;
/** Enough of a refusal's body to quote it. */
const MAX_REFUSAL_BODY = 2048;
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
  readonly capabilities: TransportCapabilities;
  onmessage: ((message: CdpIncoming) => void) | undefined;
  onclose: ((reason: string) => void) | undefined;
  readonly #socket: WebSocket;
  #closed = false;

  private constructor(socket: WebSocket, url: string) {
    this.#socket = socket;
    this.capabilities = {
      browserDomain: true,
      ownsBrowser: true,
      // A pool's endpoint gives a new browser per connection: reopening it would not be a reconnect.
      reconnect: urlNamesOneBrowser(url),
      browserPages: true,
    };
    socket.on('message', (data: WebSocket.RawData) => {
      let message: unknown;
      try {
        message = JSON.parse(rawText(data));
      } catch {
        // A frame that is not JSON is not CDP; there is nothing to route it to.
        return;
      }
      if (!isCdpIncoming(message)) {
        return;
      }
      this.onmessage?.(message);
    });
    socket.on('close', (code, reason) =>
      this.#finish(`socket closed (${code}${reason.length > 0 ? `: ${reason.toString()}` : ''})`),
    );
    socket.on('error', (error) => this.#finish(`socket error: ${error.message}`));
  }

  /**
   * Opens the WebSocket. With a `signal`, the handshake has no timeout of its own: a pool that queues the
   * connection answers the upgrade only when a browser is free, and the caller's budget decides how long
   * that may take. A refused upgrade (HTTP 429, 401, ...) is classified by its status.
   */
  static connect(url: string, options: { signal?: AbortSignal } = {}): Promise<WebSocketTransport> {
    const { signal } = options;
    const shown = redactUrl(url);
    return new Promise((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(abortReason(signal));
        return;
      }
      const socket = new WebSocket(url, {
        perMessageDeflate: false,
        maxPayload: MAX_PAYLOAD,
        ...(signal === undefined ? { handshakeTimeout: DEFAULT_HANDSHAKE_TIMEOUT_MS } : {}),
      });
      let settled = false;
      const settle = (outcome: () => void): void => {
        if (settled) {
          return;
        }
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      const fail = (error: Error): void =>
        settle(() => {
          socket.removeAllListeners();
          // A late error from the dying socket has no one to tell.
          socket.on('error', () => undefined);
          socket.terminate();
          reject(error);
        });
      const onAbort = (): void => {
        const reason = abortReason(signal);
        fail(
          new TabpilotError(
            errorCodeOf(reason),
            `Cannot connect to ${shown}: the WebSocket handshake got no answer before ${errorMessageOf(reason)} ` +
              '(a pool answers a queued connection once a browser is free)',
            { cause: reason },
          ),
        );
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      socket.once('unexpected-response', (request, response: IncomingMessage) => {
        readRefusal(response).then(
          (text) => {
            request.destroy();
            fail(httpRefusal(shown, response.statusCode ?? 0, text, headerOf(response, 'retry-after')));
          },
          (error: unknown) =>
            fail(new EndpointUnreachableError(`Cannot connect to ${shown}: ${errorMessageOf(error)}`)),
        );
      });
      socket.once('error', (error) =>
        fail(new EndpointUnreachableError(`Cannot connect to ${shown}: ${error.message}`, { cause: error })),
      );
      socket.once('open', () =>
        settle(() => {
          socket.removeAllListeners('error');
          socket.removeAllListeners('unexpected-response');
          resolve(new WebSocketTransport(socket, url));
        }),
      );
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

/** The first line of a refused upgrade's body (browserless says why there: "Too many requests"). */
function readRefusal(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      if (text.length < MAX_REFUSAL_BODY) {
        text += chunk;
      }
    });
    response.once('end', () => resolve(text.trim().split('\n')[0]?.slice(0, 200) || (response.statusMessage ?? '')));
    response.once('error', reject);
  });
}

function headerOf(response: IncomingMessage, name: string): string | null {
  const value = response.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}
