import { CdpTimeoutError } from '../../cdp/errors';
import type { CdpSession } from '../../cdp/session';
import type { PayloadInputOf } from '../../protocol/define-event';
import type { BrowserErrorEvent } from '../../protocol/events/lifecycle.events';
import { errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { BrowserSessionView } from '../session-view';
import { crashedCondition, crashSuspension, unresponsiveCondition, unresponsiveSuspension } from './crash-conditions';
import { StuckRequests } from './stuck-requests';
import type { Admission } from './tab-conditions';

/** How long a refresh of a stuck page waits for its renderer to end before reloading anyway. */
const UNSTICK_WAIT_MS = 5000;

export type BrowserError = PayloadInputOf<typeof BrowserErrorEvent>;

/** A request as the CDP events describe it when it starts. */
export interface StartedRequest {
  readonly targetId: string;
  readonly url: string;
  readonly method: string;
  readonly resourceType: string;
}

/**
 * The crash watchdog's state and decisions: which pages crashed or are stuck (and the tab conditions and
 * suspensions that follow from it), which have a dialog open (a health check would wait on it), and
 * which requests are open. It reports through `report`; what feeds it (CDP events, timers) is
 * follow-crashes.ts.
 */
export class CrashMonitor {
  readonly #session: BrowserSessionView;
  readonly #log: Logger;
  readonly #report: (error: BrowserError) => void;
  readonly #pinging = new Set<string>();
  readonly #dialogs = new Set<string>();
  readonly #requests = new StuckRequests();
  // Crashes seen on the CDP events, and how many of them were reported: Inspector and Target both
  // announce a crash (Node), and the bus event may be handled after the tab came back.
  readonly #crashes = new Map<string, { seen: number; reported: number }>();
  // Bumped at every crash and recovery of a page: a health check sent before one says nothing after it.
  readonly #epochs = new Map<string, number>();

  constructor(session: BrowserSessionView, log: Logger, report: (error: BrowserError) => void) {
    this.#session = session;
    this.#log = log;
    this.#report = report;
  }

  get #config(): BrowserSessionView['config']['crash'] {
    return this.#session.config.crash;
  }

  markCrashed(targetId: string): void {
    const { conditions, targets } = this.#session;
    if (conditions.get(targetId, 'crashed') !== undefined) {
      return;
    }
    this.#bump(targetId);
    const count = this.#crashes.get(targetId) ?? { seen: 0, reported: 0 };
    this.#crashes.set(targetId, { ...count, seen: count.seen + 1 });
    conditions.clear(targetId, 'unresponsive');
    conditions.set(targetId, crashedCondition(this.#tabId(targetId)));
    targets.suspendTarget(targetId, crashSuspension(this.#tabId(targetId)));
  }

  recovered(targetId: string): void {
    const { conditions, targets } = this.#session;
    if (conditions.get(targetId, 'crashed') === undefined && conditions.get(targetId, 'unresponsive') === undefined) {
      return;
    }
    this.#bump(targetId);
    conditions.clear(targetId, 'crashed');
    conditions.clear(targetId, 'unresponsive');
    targets.resumeTarget(targetId);
  }

  isCrashed(targetId: string): boolean {
    return this.#session.conditions.get(targetId, 'crashed') !== undefined;
  }

  dialogOpened(targetId: string): void {
    this.#dialogs.add(targetId);
  }

  dialogClosed(targetId: string): void {
    this.#dialogs.delete(targetId);
  }

  requestStarted(key: string, request: StartedRequest): void {
    this.#requests.started(key, request, Date.now());
  }

  requestEnded(key: string, targetId: string | undefined): void {
    const url = this.#requests.ended(key);
    if (url !== undefined && targetId !== undefined) {
      this.#session.conditions.unnote(targetId, `request:${url}`);
    }
  }

  /** The report of a crash the CDP events saw and no bus event reported yet; undefined once reported. */
  takeCrashReport(targetId: string, error: string): BrowserError | undefined {
    const count = this.#crashes.get(targetId);
    if (count === undefined || count.reported >= count.seen) {
      return undefined;
    }
    this.#crashes.set(targetId, { ...count, reported: count.reported + 1 });
    return {
      error_type: 'TargetCrash',
      message: `Tab ${this.#tabId(targetId)}'s page crashed (${error}): refresh it to bring it back`,
      details: { target_id: targetId },
    };
  }

  /** Pings every page that is not crashed, not already pinged and not held by a dialog. */
  checkHealth(): void {
    const { targets } = this.#session;
    for (const page of targets.pages()) {
      const session = targets.sessionFor(page.targetId);
      if (
        session === undefined ||
        this.#pinging.has(page.targetId) ||
        this.#dialogs.has(page.targetId) ||
        this.isCrashed(page.targetId)
      ) {
        continue;
      }
      this.#pinging.add(page.targetId);
      void this.#ping(page.targetId, session).finally(() => this.#pinging.delete(page.targetId));
    }
  }

  /** Reports each request open past the bound once and notes it for the tab's state. */
  sweepRequests(): void {
    const bound = this.#config.network_timeout_ms;
    if (bound === 0) {
      return;
    }
    for (const stuck of this.#requests.sweep(Date.now(), bound)) {
      const seconds = Math.round(stuck.pendingMs / 1000);
      this.#session.conditions.note(
        stuck.targetId,
        `request:${stuck.url}`,
        `${stuck.method} ${stuck.url} has had no answer for ${seconds}+ s`,
      );
      this.#report({
        error_type: 'NetworkTimeout',
        message: `Tab ${this.#tabId(stuck.targetId)}: ${stuck.method} ${stuck.url} has had no answer for ${stuck.pendingMs} ms`,
        details: {
          target_id: stuck.targetId,
          url: stuck.url,
          method: stuck.method,
          resource_type: stuck.resourceType,
          pending_ms: stuck.pendingMs,
        },
      });
    }
  }

  forget(targetId: string): void {
    const { conditions } = this.#session;
    this.#requests.forgetTarget(targetId);
    this.#dialogs.delete(targetId);
    this.#epochs.delete(targetId);
    this.#crashes.delete(targetId);
    conditions.clear(targetId, 'crashed');
    conditions.clear(targetId, 'unresponsive');
  }

  /** Lets every page go: detached, the watchdog holds no tab crashed or stuck. */
  releaseAll(): void {
    for (const page of this.#session.targets.pages()) {
      this.recovered(page.targetId);
    }
  }

  #tabId(targetId: string): string {
    return this.#session.tabIdOf(targetId);
  }

  #epochOf(targetId: string): number {
    return this.#epochs.get(targetId) ?? 0;
  }

  #bump(targetId: string): void {
    this.#epochs.set(targetId, this.#epochOf(targetId) + 1);
  }

  async #ping(targetId: string, session: CdpSession): Promise<void> {
    const { conditions, targets } = this.#session;
    const bound = this.#config.unresponsive_after_ms;
    const sentAt = Date.now();
    const epoch = this.#epochOf(targetId);
    try {
      await session.call(
        'Runtime.evaluate',
        { expression: '0', returnByValue: true },
        // A health check, not a command: it does not keep the session from counting as idle.
        { timeoutMs: bound, ignoreSuspension: true, background: true },
      );
      if (epoch === this.#epochOf(targetId) && conditions.get(targetId, 'unresponsive') !== undefined) {
        this.#log.info('a stuck page answers again', { tab: this.#tabId(targetId) });
        this.recovered(targetId);
      }
    } catch (error) {
      if (!(error instanceof CdpTimeoutError) || epoch !== this.#epochOf(targetId)) {
        return;
      }
      if (conditions.get(targetId, 'unresponsive') === undefined && targets.sessionFor(targetId) !== undefined) {
        const tab = this.#tabId(targetId);
        conditions.set(
          targetId,
          unresponsiveCondition(tab, sentAt, (admission) => this.#unstick(targetId, admission)),
        );
        targets.suspendTarget(targetId, unresponsiveSuspension(tab, sentAt));
        this.#report({
          error_type: 'TargetUnresponsive',
          message: `Tab ${tab}'s page did not answer a health check within ${bound} ms: its main thread is stuck`,
          details: { target_id: targetId, waited_ms: bound },
        });
      }
    }
  }

  // Ends a stuck renderer so the refresh that follows loads a fresh one (Runtime.terminateExecution is
  // refused to extensions; Page.crash works over both transports and is answered by the crash event).
  async #unstick(targetId: string, admission: Admission): Promise<void> {
    const session = this.#session.targets.sessionFor(targetId);
    if (session === undefined || this.isCrashed(targetId)) {
      return;
    }
    void session.call('Page.crash', undefined, { ignoreSuspension: true }).catch((error: unknown) => {
      this.#log.debug('Page.crash got no answer (it never does)', { error: errorMessageOf(error) });
    });
    const until = Math.min(admission.deadline, Date.now() + UNSTICK_WAIT_MS);
    while (!this.isCrashed(targetId) && Date.now() < until && !admission.signal.aborted) {
      await Promise.race([this.#session.conditions.nextChange(), new Promise((resolve) => setTimeout(resolve, 100))]);
    }
  }
}
