import { leavesPageSettled } from '../protocol/actions';
import type { StateSummary } from '../tools/actions';
import { toActionResult } from '../tools/action-result';
import { createDeferred, type Deferred } from '../shared/deferred';
import { ERROR_CODES, TabpilotError, type ErrorCode } from '../shared/errors';
import { sleep } from '../shared/time';
import { refusal, type ActionGate } from './approval-gate';
import { describeIdentity, INDEX_PARAMS, refindIndex } from './element-refind';
import type { ControlledRun } from './run-control';
import type { RecordedAction, RunRecord } from './run-store';
import { isRecord } from '../shared/narrow';

export interface ReplayedAction {
  readonly step: number;
  readonly name: string;
  /** The params it ran with: the recorded ones, an index replaced by the element's index now. */
  readonly params: unknown;
  readonly success: boolean;
  readonly result: string | null;
  readonly error: string | null;
  readonly error_code: string | null;
}

export interface ReplayResult {
  readonly run_id: string;
  /** Actions that ran and succeeded. */
  readonly replayed: number;
  readonly results: readonly ReplayedAction[];
  readonly stopped: boolean;
}

export interface ReplayHost {
  runAction(name: string, params: unknown): Promise<unknown>;
  emitPaused(paused: boolean): Promise<void>;
}

class Stopped extends Error {}

/**
 * browser-use's history rerun: a past run's actions again, in order, without the model. An index
 * names an element only in the state it was read from, so before each action that takes one the
 * page's state is read afresh and the element is found there by who it was (element-refind.ts). The
 * first action that fails ends the rerun with its error (ELEMENT_NOT_FOUND when the element is no
 * longer on the page); an action the person refuses is recorded as refused and the rerun goes on.
 * Failed actions of the run itself and its done are not replayed.
 */
export class Replay implements ControlledRun {
  readonly runId: string;
  readonly #record: RunRecord;
  readonly #host: ReplayHost;
  readonly #gate: ActionGate | undefined;
  readonly #settleMs: number;
  readonly #stop = new AbortController();
  #paused: Deferred<void> | undefined;

  constructor(options: { record: RunRecord; host: ReplayHost; gate?: ActionGate; settleMs: number }) {
    this.runId = options.record.run_id;
    this.#record = options.record;
    this.#host = options.host;
    this.#gate = options.gate;
    this.#settleMs = options.settleMs;
  }

  get paused(): boolean {
    return this.#paused !== undefined;
  }

  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  pause(): void {
    if (this.#paused === undefined && !this.#stop.signal.aborted) {
      this.#paused = createDeferred<void>();
      void this.#host.emitPaused(true);
    }
  }

  resume(): void {
    const paused = this.#paused;
    if (paused !== undefined) {
      this.#paused = undefined;
      paused.resolve();
      void this.#host.emitPaused(false);
    }
  }

  stop(): void {
    this.#stop.abort(new Stopped('stopped'));
    this.#paused?.resolve();
    this.#paused = undefined;
  }

  async run(): Promise<ReplayResult> {
    const results: ReplayedAction[] = [];
    let unsettled = false;
    const answer = (): ReplayResult => ({
      run_id: this.runId,
      replayed: results.filter((result) => result.success).length,
      results,
      stopped: this.#stop.signal.aborted,
    });
    for (const step of this.#record.steps) {
      for (const action of step.actions) {
        if (action.name === 'done' || action.error !== undefined) {
          continue;
        }
        while (this.#paused !== undefined) {
          await this.#paused.promise;
        }
        if (this.#stop.signal.aborted) {
          return answer();
        }
        if (unsettled && this.#settleMs > 0) {
          // A click that starts a navigation is not seen until the navigation commits (a stop ends it early).
          await sleep(this.#settleMs, this.#stop.signal).catch(() => undefined);
        }
        const state = (await this.#host.runAction('state', {})) as StateSummary;
        const params = this.#paramsNow(action, state, step.step, results);
        const verdict = await this.#gate?.review({ name: action.name, params }, state, this.#stop.signal);
        if (verdict?.kind === 'stopped' || this.#stop.signal.aborted) {
          return answer();
        }
        if (verdict?.kind === 'refused') {
          results.push({
            step: step.step,
            name: action.name,
            params,
            success: false,
            result: null,
            error: refusal(verdict.reason),
            error_code: 'FORBIDDEN',
          });
          continue;
        }
        const outcome = await toActionResult(action.name, () => this.#host.runAction(action.name, params));
        results.push({
          step: step.step,
          name: action.name,
          params,
          success: outcome.success,
          result: outcome.extracted_content,
          error: outcome.error,
          error_code: outcome.error_code,
        });
        if (!outcome.success) {
          throw this.#failure(
            outcome.error_code,
            `rerun of ${this.runId} failed at step ${step.step} (${action.name}): ${outcome.error ?? 'failed'}`,
            results,
          );
        }
        unsettled = !leavesPageSettled(action.name);
      }
    }
    return answer();
  }

  /** The recorded params with each index replaced by where its element is in `state`. */
  #paramsNow(action: RecordedAction, state: StateSummary, step: number, results: ReplayedAction[]): unknown {
    if (action.elements === undefined) {
      return action.params;
    }
    const params = { ...(isRecord(action.params) ? action.params : {}) };
    for (const key of INDEX_PARAMS) {
      const identity = action.elements[key];
      if (identity === undefined) {
        continue;
      }
      const index = refindIndex(identity, state.elements);
      if (index === null) {
        const message = `rerun of ${this.runId} failed at step ${step} (${action.name}): the ${describeIdentity(identity)} it used is not on the page any more (${state.url})`;
        results.push({
          step,
          name: action.name,
          params: action.params,
          success: false,
          result: null,
          error: message,
          error_code: 'ELEMENT_NOT_FOUND',
        });
        throw this.#failure('ELEMENT_NOT_FOUND', message, results);
      }
      params[key] = index;
    }
    return params;
  }

  #failure(code: string | null, message: string, results: readonly ReplayedAction[]): TabpilotError {
    const known = ERROR_CODES.find((candidate) => candidate === code) ?? ('INTERNAL' satisfies ErrorCode);
    return new TabpilotError(known, message, {
      details: {
        run_id: this.runId,
        replayed: results.filter((result) => result.success).length,
        results: [...results],
      },
    });
  }
}
