import type { SensitiveData } from '../browser/secrets';
import type { Flow } from '../protocol/flow';
import { errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import type { AgentRunResult, AgentStepReport } from './agent';
import { runFlow, type ActedAction } from './run-flow';
import type { RecordedAction, RecordedStep, RunRecord } from './run-store';

/**
 * Collects a run as it goes into the record a RunStore keeps: each step's goal and actions with what
 * they did, and the actions as they ran (with the locators of their elements), which become the run's
 * flow, what a rerun replays.
 */
export class RunRecorder {
  readonly #runId: string;
  readonly #task: string;
  readonly #startedAt: string;
  readonly #owner: string | undefined;
  readonly #steps: RecordedStep[] = [];
  readonly #acted: ActedAction[] = [];

  /** `owner`: the program whose run it is (its source), none for the person's run. */
  constructor(runId: string, task: string, now: Date = new Date(), owner?: string) {
    this.#runId = runId;
    this.#task = task;
    this.#startedAt = now.toISOString();
    this.#owner = owner;
  }

  step(report: AgentStepReport): void {
    const actions = report.actions.map((outcome): RecordedAction => ({
      name: outcome.name,
      params: outcome.params ?? {},
      ...(outcome.success
        ? { result: outcome.extracted_content }
        : { error: { code: outcome.error_code, message: outcome.error ?? 'failed' } }),
    }));
    this.#steps.push({
      step: report.step,
      goal: report.next_goal ?? report.thinking,
      actions,
      ...(report.screenshot === null ? {} : { screenshot: report.screenshot }),
    });
  }

  /** One of the model's actions as it ran: a step of the run's flow, if it makes one. */
  acted(action: ActedAction): void {
    this.#acted.push(action);
  }

  /**
   * The record, its flow made with the secrets in force now (a typed one is kept by its name only). A
   * flow its schema refuses is a fault of run-flow.ts: the run is kept without one, and the log says so.
   */
  finish(result: AgentRunResult, sensitiveData: SensitiveData, log: Logger, now: Date = new Date()): RunRecord {
    let flow: Flow | undefined;
    try {
      flow = runFlow(this.#task, this.#acted, sensitiveData);
    } catch (error) {
      log.warn(`run ${this.#runId} keeps no flow`, { error: errorMessageOf(error) });
    }
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
      ...(flow === undefined ? {} : { flow }),
    };
  }
}
