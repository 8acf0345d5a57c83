import { tabOf, type SessionManager } from '../../cdp/session-manager';
import { firstLine } from '../console/console-text';

/** Bounds of what is kept of the events during one outcome's watch. */
const KEPT = 3;
const LINE_CHARS = 120;

/**
 * What a tab's page did on the wire and in its console while an action's outcome is watched: the
 * requests it started (and which of them are still loading, which the settling waits for), the ones that
 * failed or answered 4xx/5xx, uncaught errors and console errors, a dialog and a download.
 */
export class PageEvents {
  /** Requests started since the watch began and not finished yet, by CDP request id. */
  readonly #loading = new Map<string, string>();
  readonly failedRequests: string[] = [];
  readonly errors: string[] = [];
  dialog: { type: string; message: string } | undefined;
  download: string | undefined;
  readonly #disposers: Array<() => void>;

  constructor(targets: SessionManager, targetId: string) {
    const mine = (source: Parameters<typeof tabOf>[0]): boolean => tabOf(source) === targetId;
    this.#disposers = [
      targets.on('Network.requestWillBeSent', (params, source) => {
        // A stream stays open for as long as the page lives: nothing to wait for.
        if (mine(source) && params.type !== 'EventSource' && params.type !== 'WebSocket') {
          this.#loading.set(params.requestId, `${params.request.method} ${shortUrl(params.request.url)}`);
        }
      }),
      targets.on('Network.responseReceived', (params, source) => {
        const request = this.#loading.get(params.requestId);
        if (mine(source) && request !== undefined && params.response.status >= 400) {
          keep(this.failedRequests, `${request} → ${params.response.status}`);
        }
      }),
      targets.on('Network.loadingFinished', (params) => {
        this.#loading.delete(params.requestId);
      }),
      targets.on('Network.loadingFailed', (params, source) => {
        const request = this.#loading.get(params.requestId);
        this.#loading.delete(params.requestId);
        // A request the page itself cancelled (a navigation away, an aborted fetch) did not fail.
        if (mine(source) && request !== undefined && params.canceled !== true) {
          keep(this.failedRequests, `${request} → ${params.blockedReason ?? params.errorText}`);
        }
      }),
      targets.on('Runtime.exceptionThrown', (params, source) => {
        if (mine(source)) {
          const details = params.exceptionDetails;
          keep(this.errors, shortLine(details.exception?.description ?? details.text));
        }
      }),
      targets.on('Runtime.consoleAPICalled', (params, source) => {
        if (mine(source) && params.type === 'error') {
          keep(this.errors, shortLine(params.args.map((arg) => String(arg.value ?? arg.description ?? '')).join(' ')));
        }
      }),
      targets.on('Page.javascriptDialogOpening', (params, source) => {
        if (mine(source)) {
          this.dialog = { type: params.type, message: params.message.slice(0, LINE_CHARS) };
        }
      }),
      targets.on('Page.downloadWillBegin', (params, source) => {
        if (mine(source)) {
          this.download = params.suggestedFilename;
        }
      }),
    ];
  }

  /** Requests the action caused that are still loading. */
  get loading(): number {
    return this.#loading.size;
  }

  dispose(): void {
    for (const dispose of this.#disposers) {
      dispose();
    }
    this.#disposers.length = 0;
  }
}

function keep(list: string[], line: string): void {
  if (list.length < KEPT && !list.includes(line)) {
    list.push(line);
  }
}

/** The first line of a text, cut short. */
function shortLine(text: string): string {
  const line = firstLine(text);
  return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS - 1)}…` : line;
}

/** A request's URL without its query, its origin left out: what a model needs to recognise it. */
function shortUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname.length > 80 ? `${parsed.pathname.slice(0, 79)}…` : parsed.pathname;
    return parsed.protocol.startsWith('http') ? path : parsed.protocol;
  } catch {
    // Not a URL a parser takes (the page's own scheme): the start of it tells enough.
    return url.slice(0, 80);
  }
}
