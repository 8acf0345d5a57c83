import type { StateSummary } from '../tools/actions';
import type { AgentRunResult, AgentStepReport } from './agent';
import { identityOf, INDEX_PARAMS } from './element-refind';
import type { ElementIdentity, RecordedAction, RecordedStep, RunRecord } from './run-store';
import { fieldOf } from '../shared/narrow';

function elementsOf(params: unknown, state: StateSummary | null): Record<string, ElementIdentity> | undefined {
  if (state === null || typeof params !== 'object' || params === null) {
    return undefined;
  }
  const named: Record<string, ElementIdentity> = {};
  for (const key of INDEX_PARAMS) {
    const index = fieldOf(params, key);
    const identity = typeof index === 'number' ? identityOf(index, state.elements) : undefined;
    if (identity !== undefined) {
      named[key] = identity;
    }
  }
  return Object.keys(named).length === 0 ? undefined : named;
}

/**
 * Collects a run as it goes into the record a RunStore keeps: each step's goal and actions with what
 * they did, and for each index an action used, who the element was in the state the model chose it
 * on, which is what a rerun finds it by.
 */
export class RunRecorder {
  readonly #runId: string;
  readonly #task: string;
  readonly #startedAt: string;
  readonly #owner: string | undefined;
  readonly #steps: RecordedStep[] = [];

  /** `owner`: the program whose run it is (its source), none for the person's run. */
  constructor(runId: string, task: string, now: Date = new Date(), owner?: string) {
    this.#runId = runId;
    this.#task = task;
    this.#startedAt = now.toISOString();
    this.#owner = owner;
  }

  step(report: AgentStepReport, state: StateSummary | null): void {
    const actions = report.actions.map((outcome): RecordedAction => {
      const elements = elementsOf(outcome.params, state);
      return {
        name: outcome.name,
        params: outcome.params ?? {},
        ...(outcome.success
          ? { result: outcome.extracted_content }
          : { error: { code: outcome.error_code, message: outcome.error ?? 'failed' } }),
        ...(elements === undefined ? {} : { elements }),
      };
    });
    this.#steps.push({
      step: report.step,
      goal: report.next_goal ?? report.thinking,
      actions,
      ...(report.screenshot === null ? {} : { screenshot: report.screenshot }),
    });
  }

  finish(result: AgentRunResult, now: Date = new Date()): RunRecord {
    return {
      run_id: this.#runId,
      ...(this.#owner === undefined ? {} : { owner: this.#owner }),
      task: this.#task,
      started_at: this.#startedAt,
      finished_at: now.toISOString(),
      reason: result.reason,
      success: result.success,
      text: result.text,
      steps: [...this.#steps],
    };
  }
}
