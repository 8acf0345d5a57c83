import type { CdpSession } from '../cdp/session';
import { TabpilotError } from '../shared/errors';
import { describeException } from '../cdp/errors';
import { COLLECTOR_SOURCE } from './generated/collector-source';
import { COLLECTOR_VERSION } from './payload';

const WORLD_NAME = '__tabpilot_world';

/**
 * tabpilot's isolated world in each frame: the page's scripts cannot see or tamper with what runs there,
 * and it keeps the collector's element registry between states (so indexes stay stable). One world per
 * document; a navigation destroys it and the next use makes a new one.
 */
export class FrameWorlds {
  readonly #contexts = new Map<string, { session: CdpSession; contextId: number }>();

  /** Evaluates in the frame's world, creating it (and installing the collector) when needed. */
  async evaluate<T>(
    session: CdpSession,
    frameId: string,
    expression: string,
    signal?: AbortSignal,
  ): Promise<{ value: T; contextId: number }> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const contextId = await this.contextFor(session, frameId);
      const installed = `globalThis.__tabpilot?.version === ${COLLECTOR_VERSION} ? (${expression}) : '__tabpilot_missing'`;
      try {
        let response = await session.call(
          'Runtime.evaluate',
          { expression: installed, contextId, returnByValue: true, awaitPromise: true },
          signal === undefined ? {} : { signal },
        );
        if (response.result.value === '__tabpilot_missing') {
          response = await session.call(
            'Runtime.evaluate',
            { expression: `${COLLECTOR_SOURCE};(${expression})`, contextId, returnByValue: true, awaitPromise: true },
            signal === undefined ? {} : { signal },
          );
        }
        if (response.exceptionDetails !== undefined) {
          throw new TabpilotError('INTERNAL', `in-page code failed: ${describeException(response.exceptionDetails)}`);
        }
        return { value: response.result.value as T, contextId };
      } catch (error) {
        if (attempt === 0 && isStaleContext(error)) {
          this.forget(session, frameId);
          continue;
        }
        throw error;
      }
    }
    throw new TabpilotError('INTERNAL', 'unreachable: world retry loop');
  }

  /** The world's execution context id in a frame (made on first use). */
  async contextFor(session: CdpSession, frameId: string): Promise<number> {
    const key = `${session.sessionId}|${frameId}`;
    const known = this.#contexts.get(key);
    if (known !== undefined) {
      return known.contextId;
    }
    const { executionContextId } = await session.send('Page.createIsolatedWorld', {
      frameId,
      worldName: WORLD_NAME,
      grantUniveralAccess: false,
    });
    this.prune();
    this.#contexts.set(key, { session, contextId: executionContextId });
    return executionContextId;
  }

  forget(session: CdpSession, frameId: string): void {
    this.#contexts.delete(`${session.sessionId}|${frameId}`);
  }

  /** How many worlds are known (a debug figure: at most one per live page and out-of-process frame). */
  get size(): number {
    return this.#contexts.size;
  }

  /** Worlds of sessions that went away (closed tabs, gone frames, an old connection) are dropped. */
  prune(): void {
    for (const [key, entry] of this.#contexts) {
      if (entry.session.detached) {
        this.#contexts.delete(key);
      }
    }
  }
}

/** A context id from before a navigation (or a detached session) no longer exists. */
export function isStaleContext(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Cannot find context with specified id|Execution context was destroyed|Cannot find default execution context/i.test(
    message,
  );
}
