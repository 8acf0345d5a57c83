import type { CdpConnection } from '../../cdp/connection';
import type { CdpSession } from '../../cdp/session';
import type { SessionManager } from '../../cdp/session-manager';
import type { Protocol } from '../../protocol/cdp';
import { TabpilotError } from '../../shared/errors';
import { SerialQueue } from '../../shared/serial-queue';
import { pollUntil } from '../../shared/time';
import type { PolicyConfig } from './url-policy';
import { replaceSessionRules } from './session-rules';
import { webSocketSessionRules } from './websocket-rules';

/** The guard extension's service worker, by the file name tabpilot gives it (platform/node/guard-extension.ts). */
export const GUARD_WORKER_FILE = 'tabpilot-socket-guard.js';

/** How long a browser just started may take to run the guard's worker and activate it. */
const READY_TIMEOUT_MS = 5_000;
const READY_POLL_MS = 50;
/** One rules call; a worker that does not answer in this is attached anew, once. */
const CALL_TIMEOUT_MS = 3_000;

function noGuard(): TabpilotError {
  return new TabpilotError(
    'UNSUPPORTED',
    'This browser runs no WebSocket guard (the launcher loads one with --load-extension; a browser started with extensions off, or one that ignores the flag, has none): WebSocket handshakes are not held to the URL policy',
  );
}

/** The guard's worker replaces the rules with its own chrome.declarativeNetRequest (session-rules.ts). */
function replaceRulesExpression(rules: unknown): string {
  return `(${replaceSessionRules.toString()})(chrome.declarativeNetRequest, ${JSON.stringify(rules)})`;
}

/**
 * The URL policy for the WebSocket handshakes of a browser tabpilot launched. The Fetch domain that holds
 * every other request never sees a WebSocket, and no CDP command stops one (measured on Chromium 156), so
 * the launcher loads a guard extension with the declarativeNetRequest permission and nothing else, and this
 * writes the policy's WebSocket rules (websocket-rules.ts) into the browser's own network stack through
 * its worker: for the whole browser, every page of which is tabpilot's. Each sync replaces the rules; a
 * later one waits for the one before.
 */
export class GuardWorker {
  readonly #targets: SessionManager;
  #session: CdpSession | undefined;
  /** The connection on which no guard was found: a browser does not grow one later, so it is not sought again. */
  #absentOn: CdpConnection | undefined;
  readonly #queue = new SerialQueue();

  constructor(targets: SessionManager) {
    this.#targets = targets;
  }

  /** Puts the policy's rules in force; fails (UNSUPPORTED) when the browser runs no guard. */
  sync(config: PolicyConfig): Promise<void> {
    return this.#queue.run(() => this.#replace(config));
  }

  async #replace(config: PolicyConfig): Promise<void> {
    const rules = webSocketSessionRules(config);
    const expression = replaceRulesExpression(rules);
    let answer: Protocol.Runtime.EvaluateResponse;
    try {
      answer = await this.#evaluate(await this.#worker(), expression);
    } catch (error) {
      if (error instanceof TabpilotError && error.code === 'UNSUPPORTED') {
        throw error;
      }
      // The worker stopped since it was attached, or did not answer: once more, on a fresh attach.
      this.#session = undefined;
      answer = await this.#evaluate(await this.#worker(), expression);
    }
    const { result, exceptionDetails } = answer;
    if (exceptionDetails !== undefined || result.value !== rules.length) {
      throw new TabpilotError(
        'INTERNAL',
        `The WebSocket guard did not take the policy's ${rules.length} rules: ${exceptionDetails?.exception?.description ?? exceptionDetails?.text ?? `it holds ${String(result.value)}`}`,
      );
    }
  }

  #evaluate(session: CdpSession, expression: string): Promise<Protocol.Runtime.EvaluateResponse> {
    return session.call(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true },
      { timeoutMs: CALL_TIMEOUT_MS },
    );
  }

  /** The guard's worker, attached and active: the session kept while it belongs to the live connection. */
  async #worker(): Promise<CdpSession> {
    const kept = this.#session;
    if (kept !== undefined && !kept.detached && kept.connection === this.#targets.connection) {
      return kept;
    }
    const session = await this.#targets.attachAside(await this.#findWorker());
    await this.#whenActivated(session);
    this.#session = session;
    return session;
  }

  async #findWorker(): Promise<string> {
    const connection = this.#targets.connection;
    if (connection === this.#absentOn) {
      throw noGuard();
    }
    return pollUntil(
      async () => {
        const { targetInfos } = await this.#targets.root.send('Target.getTargets', {
          filter: [{ type: 'service_worker' }],
        });
        return targetInfos.find(
          (info) => info.url.startsWith('chrome-extension://') && info.url.endsWith(`/${GUARD_WORKER_FILE}`),
        )?.targetId;
      },
      {
        timeoutMs: READY_TIMEOUT_MS,
        intervalMs: READY_POLL_MS,
        onTimeout: () => {
          this.#absentOn = connection;
          return noGuard();
        },
      },
    );
  }

  /**
   * Waits for the worker to be activated: an extension call made while a just-loaded worker is still
   * installing could go unanswered (seen on Chromium 156 as a rules call that never returned).
   */
  async #whenActivated(session: CdpSession): Promise<void> {
    let state: unknown;
    await pollUntil(
      async () => {
        const answer = await session.call(
          'Runtime.evaluate',
          { expression: 'self.serviceWorker?.state', returnByValue: true },
          { timeoutMs: CALL_TIMEOUT_MS },
        );
        state = answer.result.value;
        return state === 'activated' ? true : undefined;
      },
      {
        timeoutMs: READY_TIMEOUT_MS,
        intervalMs: READY_POLL_MS,
        onTimeout: () =>
          new TabpilotError('TIMEOUT', `The WebSocket guard's worker did not activate (it is ${String(state)})`),
      },
    );
  }
}
