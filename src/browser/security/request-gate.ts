import type { CdpSession } from '../../cdp/session';
import type { SessionManager, TargetRecord } from '../../cdp/session-manager';
import type { Protocol } from '../../protocol/cdp';
import { errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { BLOCK_REASONS } from '../../protocol/routes';
import type { HostResolver } from '../host';
import type { TabRoutes } from '../routes/tab-routes';
import type { BlockedDecision, NavigationGuard } from './navigation-guard';

/**
 * The requests to hold before they are sent, by URL glob, of every resource type: documents, and the
 * subresources a page could reach a refused host with (images, scripts, fetch, XHR, EventSource,
 * beacons, a worker's own requests).
 */
function heldRequests(urlPatterns: readonly string[]): Protocol.Fetch.RequestPattern[] {
  return urlPatterns.map((urlPattern) => ({ urlPattern, requestStage: 'Request' }));
}

/** The tab a target's requests belong to: a page's own, or the page a frame or worker is in. */
function tabOf(target: TargetRecord): string {
  return target.pageTargetId ?? target.targetId;
}

export interface GateBlock {
  /** The target whose session held the request (the page, or an out-of-process frame). */
  target: TargetRecord;
  /** The page (tab) it belongs to. */
  pageTargetId: string;
  url: string;
  decision: BlockedDecision;
  mainFrame: boolean;
  /** A document (a page or a frame loading) rather than a subresource (an image, a fetch, a beacon...). */
  document: boolean;
}

/** Pages and frames load documents and subresources; dedicated workers send requests of their own. */
export function sendsRequests(target: TargetRecord): boolean {
  return target.type === 'page' || target.type === 'iframe' || target.type === 'worker';
}

/**
 * Holds every request of every controlled page, frame and dedicated worker at the Fetch domain's request
 * stage and lets it go only when the URL policy allows it, so nothing refused reaches the server. A refused
 * document fails with net::ERR_ABORTED (no error page commits, the tab stays where it was); a refused
 * subresource with net::ERR_BLOCKED_BY_CLIENT (the page sees a network error and goes on). Measured on
 * Chromium 156, over the WebSocket and over chrome.debugger alike: typed navigations, links, scripted
 * location changes, meta refresh (from data: documents too), form posts, each redirect hop, new frames and
 * out-of-process frames navigating themselves, images, scripts, fetch, XHR, EventSource, sendBeacon and a
 * worker's fetch all pause here; a popup pauses in its own new session, which Node's auto-attach holds
 * until the setup ran. WebSocket handshakes never pause here (see websocket-rules.ts).
 *
 * Holding costs what Chromium charges for it (measured by `npm run bench -- --only security`), so only
 * what the policy could refuse is held: nothing without a host rule, only URLs that contain a prohibited
 * host (or start with an address, or name localhost) for a prohibited list and the address rule, every
 * request for an allow list, and for the address rule where names are resolved (UrlPolicy.holdPatternsFor).
 * It follows policy changes on every session at once.
 *
 * It is also the one owner of the Fetch domain for the routes clients set on their tabs (`route`): a
 * session's Fetch.enable replaces its earlier patterns and every paused request must be answered once,
 * so each page, frame and worker session is enabled with the policy's patterns and its tab's route
 * patterns together, and a paused request is judged by the policy first (a refused URL is refused,
 * whatever a route says), then answered by the tab's first matching route, else let go.
 */
export class RequestGate {
  readonly #targets: SessionManager;
  readonly #guard: NavigationGuard;
  readonly #log: Logger;
  readonly #onBlocked: (block: GateBlock, session: CdpSession) => void;
  readonly #resolver: HostResolver | undefined;
  readonly #routes: TabRoutes;

  /** `resolver`, where the platform has one (Node), lets block_ip_addresses judge where a name leads. */
  constructor(
    targets: SessionManager,
    guard: NavigationGuard,
    routes: TabRoutes,
    log: Logger,
    onBlocked: (block: GateBlock, session: CdpSession) => void,
    resolver?: HostResolver,
  ) {
    this.#targets = targets;
    this.#guard = guard;
    this.#routes = routes;
    this.#log = log;
    this.#onBlocked = onBlocked;
    this.#resolver = resolver;
  }

  /** The URL globs to hold now. */
  #hold(): readonly string[] {
    return this.#guard.policy.holdPatternsFor({ resolvesNames: this.#resolver !== undefined });
  }

  /** What to pause on a target's session: what the policy could refuse, and what its tab's routes answer. */
  #patternsFor(target: TargetRecord, hold: readonly string[]): Protocol.Fetch.RequestPattern[] {
    return [...heldRequests(hold), ...this.#routes.patternsFor(tabOf(target))];
  }

  /** Wires the gate into the SessionManager (every session now, later ones, after reconnects). */
  install(): () => void {
    const disposers = [
      // Sent before the setup's first await, so a target paused at start (a popup) is held before it runs.
      this.#targets.addSessionSetup(async (session, target) => {
        const patterns = this.#patternsFor(target, this.#hold());
        if (sendsRequests(target) && patterns.length > 0) {
          await session.send('Fetch.enable', { patterns });
        }
      }),
      this.#routes.onChange((pageTargetId) => this.reconcile(pageTargetId)),
      this.#targets.on('Fetch.requestPaused', (params, source) =>
        this.#onPaused(params, source.session, source.target),
      ),
    ];
    return () => {
      for (const dispose of disposers) {
        dispose();
      }
    };
  }

  /**
   * Turns interception on or off on every page, frame and worker session (or only those of one tab, whose
   * routes changed), with the patterns the policy and the tab's routes now need.
   */
  async reconcile(onlyTab?: string): Promise<void> {
    const hold = this.#hold();
    const steps = this.#targets
      .targets()
      .filter((target) => sendsRequests(target) && (onlyTab === undefined || tabOf(target) === onlyTab))
      .map(async (target) => {
        const session = this.#targets.sessionFor(target.targetId);
        if (session === undefined) {
          return;
        }
        const patterns = this.#patternsFor(target, hold);
        try {
          await (patterns.length > 0 ? session.send('Fetch.enable', { patterns }) : session.send('Fetch.disable'));
        } catch (error) {
          this.#log.warn('could not update request interception', {
            target: target.targetId,
            error: errorMessageOf(error),
          });
        }
      });
    await Promise.all(steps);
  }

  #onPaused(params: Protocol.Fetch.RequestPausedEvent, session: CdpSession, target: TargetRecord | undefined): void {
    const { requestId, request } = params;
    // Another stage or client's interception is not ours to judge; a response-stage pause passes on.
    const ours =
      target !== undefined && params.responseStatusCode === undefined && params.responseErrorReason === undefined;
    const decision = ours ? this.#guard.decide(request.url) : ({ allowed: true } as const);
    const name = ours && decision.allowed ? this.#guard.policy.nameToResolve(request.url) : undefined;
    if (target === undefined) {
      this.#answer(session.send('Fetch.continueRequest', { requestId }), request.url);
      return;
    }
    if (decision.allowed && (name === undefined || this.#resolver === undefined)) {
      this.#letGo(params, session, target);
      return;
    }
    if (!decision.allowed) {
      this.#fail(params, session, target, decision);
      return;
    }
    void this.#judgeAddresses(params, session, target, name ?? '', this.#resolver);
  }

  /**
   * Resolves the request's host name now (not from a cache: a name that rebinds to a private address is
   * judged by where it leads at this request) and holds it to block_ip_addresses. A name this machine
   * cannot resolve is let go: the browser's resolver answers it, or fails the request itself.
   */
  async #judgeAddresses(
    params: Protocol.Fetch.RequestPausedEvent,
    session: CdpSession,
    target: TargetRecord,
    name: string,
    resolver: HostResolver | undefined,
  ): Promise<void> {
    const { request } = params;
    let addresses: readonly string[] = [];
    try {
      addresses = (await resolver?.addresses(name)) ?? [];
    } catch (error) {
      this.#log.debug('could not resolve a host name for block_ip_addresses', { name, error: errorMessageOf(error) });
    }
    const decision = this.#guard.policy.decideAddresses(request.url, name, addresses);
    if (decision.allowed) {
      this.#letGo(params, session, target);
      return;
    }
    this.#fail(params, session, target, decision);
  }

  /**
   * A request the policy allows: answered by its tab's first matching route, else sent on. A fulfilled
   * response that redirects (a Location header) starts a new request, which pauses here and is judged again.
   */
  #letGo(params: Protocol.Fetch.RequestPausedEvent, session: CdpSession, target: TargetRecord): void {
    const { requestId, request } = params;
    const answer = this.#routes.answer(tabOf(target), request.url, params.resourceType);
    if (answer === undefined) {
      this.#answer(session.send('Fetch.continueRequest', { requestId }), request.url);
    } else if (answer.kind === 'block') {
      this.#answer(
        session.send('Fetch.failRequest', { requestId, errorReason: BLOCK_REASONS[answer.reason] }),
        request.url,
      );
    } else {
      this.#answer(
        session.send('Fetch.fulfillRequest', {
          requestId,
          responseCode: answer.status,
          responseHeaders: answer.headers,
          body: answer.bodyBase64,
        }),
        request.url,
      );
    }
  }

  #fail(
    params: Protocol.Fetch.RequestPausedEvent,
    session: CdpSession,
    target: TargetRecord,
    decision: BlockedDecision,
  ): void {
    const { requestId, request } = params;
    const document = params.resourceType === 'Document';
    // The main frame's id is its page's target id; anything else is a frame inside it.
    const mainFrame = document && target.type === 'page' && params.frameId === target.targetId;
    // A refused document is aborted (no error page commits, the tab stays); a refused subresource fails
    // as the page's network error, net::ERR_BLOCKED_BY_CLIENT, as an ad blocker's would: the page goes on.
    const errorReason = document ? 'Aborted' : 'BlockedByClient';
    this.#answer(session.send('Fetch.failRequest', { requestId, errorReason }), request.url);
    this.#onBlocked(
      { target, pageTargetId: target.pageTargetId ?? target.targetId, url: request.url, decision, mainFrame, document },
      session,
    );
  }

  #answer(step: Promise<unknown>, url: string): void {
    step.catch((error: unknown) =>
      // The target went away while its request was held: nothing is left to answer.
      this.#log.debug('could not answer a held request', { url, error: errorMessageOf(error) }),
    );
  }
}
