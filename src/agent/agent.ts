import type { AgentConfig } from './agent.config';
import type { AgentActionOutcome, AgentRunFinishReason, AgentStepScreenshot } from '../protocol/events/agent.events';
import { leavesPageSettled } from '../protocol/actions';
import type { StateSummary } from '../tools/actions';
import type { Acted } from './agent-connection';
import { changesPage, movedOn } from './batch-moves';
import type { ActionDescription } from '../tools/registry';
import { createDeferred, type Deferred } from '../shared/deferred';
import { errorMessageOf } from '../shared/errors';
import { silentLogger, type Logger } from '../shared/logger';
import { sleep } from '../shared/time';
import { holdAtGate, type ActionGate } from './approval-gate';
import { LoopDetector } from './loop-detector';
import type { AgentModel, ModelAction, ModelDecision } from './model';
import { systemPrompt, toolsFrom, userPrompt, type StepMemory } from './prompt';
import { screenshotOf, stepShotOf, type StepListener } from './step-picture';
import type { StepShot } from './step-shots';
import { fieldOf } from '../shared/narrow';
import type { ElementLocator } from '../dom/payload';
import { actTelling } from './act-for-flow';
import type { ActedAction } from './run-flow';

/**
 * What the loop may touch: the one action road and the bus. It masks nothing itself: its actions'
 * answers and errors come masked from its client connection (agent-connection.ts), and its events are
 * masked on their way to each subscribed client, as every client's are.
 */
export interface AgentHost {
  /** Runs a protocol action as the agent's client, through the same gate and registry as every client. */
  runAction(name: string, params: unknown): Promise<unknown>;
  /**
   * runAction for the model's chosen actions, with what each did to the page (its verified outcome),
   * which the model then reads instead of the action's raw result. A host without it gives the result.
   */
  act?(name: string, params: unknown): Promise<Acted>;
  /** How a flow names the element an index names in a tab's latest state; null when it is gone. */
  locate?(tabId: string, index: number): Promise<ElementLocator | null>;
  /** Emits one of the agent's events on the session's bus. */
  emit(type: 'started' | 'step' | 'finished' | 'paused', payload: Record<string, unknown>): Promise<void>;
  /** Calls back when the emergency stop is pressed; answers the unsubscribe. */
  onEmergencyStop(callback: () => void): () => void;
  readonly actions: readonly ActionDescription[];
  readonly secretNames: readonly string[];
}

export interface AgentRunResult {
  readonly run_id: string;
  readonly reason: AgentRunFinishReason;
  readonly success: boolean;
  readonly text: string;
  readonly steps: number;
}

export interface AgentStepReport {
  readonly step: number;
  readonly url: string;
  readonly thinking: string | null;
  readonly next_goal: string | null;
  readonly actions: readonly AgentActionOutcome[];
  readonly error: string | null;
  readonly model_attempts: number;
  readonly prompt_chars: number;
  /** The picture of the page the step acted on, when one was kept (its bytes come with onStep). */
  readonly screenshot: AgentStepScreenshot | null;
}

class Stopped extends Error {
  constructor() {
    super('stopped');
    this.name = 'Stopped';
  }
}

/**
 * browser-use's Agent in our terms: each step reads the state, builds the prompt (the system prompt
 * from the registry's schemas, the task, the history, the state with the page wrapped as untrusted),
 * asks the model, runs the actions it chose through the one action road, and records the step as an
 * event. `done` ends the run; so do max_steps, max_failures consecutive failures and a stop.
 */
export class Agent {
  readonly runId: string;
  readonly #host: AgentHost;
  readonly #model: AgentModel;
  readonly #config: AgentConfig;
  readonly #tasks: string[] = [];
  readonly #history: StepMemory[] = [];
  #step = 0;
  /** Steps recorded (a step stopped before any of its actions ran is not one). */
  #recorded = 0;
  #running = false;
  #stop = new AbortController();
  #paused: Deferred<void> | undefined;
  /** The last step ran an action that may have started a navigation that has not committed yet. */
  #unsettled = false;
  readonly #onStep: StepListener | undefined;
  readonly #onActed: ((acted: ActedAction) => void) | undefined;
  readonly #gate: ActionGate | undefined;
  readonly #log: Logger;

  constructor(options: {
    runId: string;
    host: AgentHost;
    model: AgentModel;
    config: AgentConfig;
    /**
     * Called with each step as it is recorded, the state its actions were chosen on and the picture of
     * that page; the step's event is emitted once it has settled, so what it kept can be asked for.
     */
    onStep?: StepListener;
    /** Called with each of the model's actions once it ran, with its element's locator (the run's flow). */
    onActed?: (acted: ActedAction) => void;
    /** Looks at each action before it runs (approvals); none lets every action run. */
    gate?: ActionGate;
    log?: Logger;
  }) {
    this.#log = options.log ?? silentLogger;
    this.runId = options.runId;
    this.#host = options.host;
    this.#model = options.model;
    this.#config = options.config;
    this.#onStep = options.onStep;
    this.#onActed = options.onActed;
    this.#gate = options.gate;
  }

  get running(): boolean {
    return this.#running;
  }

  get paused(): boolean {
    return this.#paused !== undefined;
  }

  /** Holds the run before its next step (or its next action); the model call in flight finishes. */
  pause(): void {
    if (this.#paused !== undefined || !this.#running) {
      return;
    }
    this.#paused = createDeferred<void>();
    void this.#emit('paused', { run_id: this.runId, paused: true });
  }

  resume(): void {
    const paused = this.#paused;
    if (paused === undefined) {
      return;
    }
    this.#paused = undefined;
    paused.resolve();
    void this.#emit('paused', { run_id: this.runId, paused: false });
  }

  /** Ends the run: the model request in flight is abandoned, no further action runs. */
  stop(): void {
    this.#stop.abort(new Stopped());
    this.#paused?.resolve();
    this.#paused = undefined;
  }

  /**
   * Runs a task. Called again after a run has finished, it is a follow-up: the earlier tasks and steps
   * stay in the history the model sees.
   */
  async run(task: string): Promise<AgentRunResult> {
    if (this.#running) {
      throw new Error('the agent is already running a task');
    }
    this.#running = true;
    this.#stop = new AbortController();
    this.#tasks.push(task);
    const unsubscribe = this.#host.onEmergencyStop(() => this.stop());
    try {
      await this.#emit('started', {
        run_id: this.runId,
        task,
        model: this.#model.name,
        provider: this.#model.provider,
        max_steps: this.#config.max_steps,
      });
      const result = await this.#loop();
      await this.#emit('finished', { ...result });
      return result;
    } finally {
      unsubscribe();
      this.#running = false;
    }
  }

  async #loop(): Promise<AgentRunResult> {
    const config = this.#config;
    const tools = toolsFrom(this.#host.actions, config.exclude_actions);
    const system = systemPrompt({
      tools,
      mode: config.tool_calling,
      maxActionsPerStep: config.max_actions_per_step,
      secretNames: this.#host.secretNames,
    });
    const loops = new LoopDetector(config.loop_repeats);
    let failures = 0;
    let lastError = '';
    let warnings: string[] = [];
    const firstStep = this.#step;
    const firstRecorded = this.#recorded;
    const finish = (reason: AgentRunFinishReason, success: boolean, text: string): AgentRunResult => ({
      run_id: this.runId,
      reason,
      success,
      text,
      steps: this.#recorded - firstRecorded,
    });
    while (this.#step - firstStep < config.max_steps) {
      if (await this.#holdIfPaused()) {
        return finish('stopped', false, 'Stopped by the user');
      }
      this.#step++;
      const outcome = await this.#runStep(system, tools, warnings);
      warnings = [];
      if (outcome.kind === 'stopped') {
        return finish('stopped', false, 'Stopped by the user');
      }
      if (outcome.kind === 'done') {
        return finish('done', outcome.success, outcome.text);
      }
      const loopWarning = loops.record(outcome.fingerprint, outcome.actions);
      if (loopWarning !== null) {
        warnings.push(loopWarning);
      }
      if (outcome.failed) {
        failures++;
        lastError = outcome.error;
        if (failures >= config.max_failures) {
          return finish('max_failures', false, `Stopped after ${failures} failed steps in a row: ${lastError}`);
        }
      } else {
        failures = 0;
      }
    }
    return finish('max_steps', false, `The task was not finished within ${config.max_steps} steps`);
  }

  /** Waits while paused; answers true when the run was stopped meanwhile. */
  async #holdIfPaused(): Promise<boolean> {
    while (this.#paused !== undefined) {
      await this.#paused.promise;
    }
    return this.#stop.signal.aborted;
  }

  async #readState(): Promise<{ state: StateSummary | null; error: string | null }> {
    if (this.#unsettled && this.#config.settle_ms > 0) {
      this.#unsettled = false;
      // A stop ends the pause early; the model call after it sees the stop and ends the step.
      await sleep(this.#config.settle_ms, this.#stop.signal).catch(() => undefined);
    }
    try {
      const state = (await this.#host.runAction('state', {
        include_screenshot: this.#config.use_vision,
      })) as StateSummary;
      return { state, error: null };
    } catch (error) {
      return { state: null, error: errorMessageOf(error) };
    }
  }

  async #runStep(
    system: string,
    tools: ReturnType<typeof toolsFrom>,
    warnings: readonly string[],
  ): Promise<
    | { kind: 'stopped' }
    | { kind: 'done'; success: boolean; text: string }
    | { kind: 'next'; failed: boolean; error: string; fingerprint: string; actions: readonly ModelAction[] }
  > {
    const { state, error: stateError } = await this.#readState();
    // Taken while the model thinks, waited for before any action runs; never rejects.
    const shotTaken = stepShotOf(state, this.#config, this.#host, this.#log);
    const user = userPrompt({
      tasks: this.#tasks,
      history: this.#history,
      state,
      stateError,
      step: this.#step,
      maxSteps: this.#config.max_steps,
      warnings,
    });
    const screenshot =
      state?.screenshot === null || state?.screenshot === undefined
        ? null
        : { data: state.screenshot, mediaType: `image/${state.screenshot_format ?? 'jpeg'}` };
    const url = state?.url ?? '';
    const promptChars = system.length + user.length;
    let decision: ModelDecision;
    try {
      decision = await this.#model.decide({ system, user, screenshot, tools }, this.#stop.signal);
    } catch (error) {
      if (this.#stop.signal.aborted) {
        return { kind: 'stopped' };
      }
      const shot = await shotTaken;
      const message = errorMessageOf(error);
      const attempts = fieldOf(error, 'attempts');
      await this.#record(state, shot, {
        step: this.#step,
        url,
        thinking: null,
        next_goal: null,
        actions: [],
        error: message,
        model_attempts: typeof attempts === 'number' ? attempts : 1,
        prompt_chars: promptChars,
        screenshot: screenshotOf(shot),
      });
      return { kind: 'next', failed: true, error: message, fingerprint: url, actions: [] };
    }
    const shot = await shotTaken;
    const done = decision.actions.find((action) => action.name === 'done');
    const outcomes: AgentActionOutcome[] = [];
    let stepError: string | null = null;
    if (done !== undefined && decision.actions.length > 1) {
      stepError = 'done must be the only action of its step; nothing was run';
    } else if (done !== undefined) {
      const given = fieldOf(done.params, 'text');
      const text = typeof given === 'string' ? given : '';
      const success = fieldOf(done.params, 'success') !== false;
      outcomes.push({
        name: 'done',
        params: done.params,
        success: true,
        extracted_content: text,
        error: null,
        error_code: null,
      });
      await this.#record(state, shot, this.#report(decision, url, outcomes, null, promptChars, shot));
      return { kind: 'done', success, text };
    } else {
      const batch = decision.actions.slice(0, this.#config.max_actions_per_step);
      const ran = await this.#runBatch(batch, state);
      if (ran === 'stopped') {
        return { kind: 'stopped' };
      }
      outcomes.push(...ran);
      if (decision.actions.length > batch.length) {
        stepError = `only the first ${batch.length} actions were run (max_actions_per_step)`;
      }
    }
    await this.#record(state, shot, this.#report(decision, url, outcomes, stepError, promptChars, shot));
    const allFailed = outcomes.length === 0 || outcomes.every((outcome) => !outcome.success);
    const error = stepError ?? outcomes.find((outcome) => !outcome.success)?.error ?? 'no action succeeded';
    return {
      kind: 'next',
      failed: allFailed,
      error,
      fingerprint: `${url}\u0000${state?.text ?? ''}`,
      actions: decision.actions,
    };
  }

  async #runBatch(
    batch: readonly ModelAction[],
    state: StateSummary | null,
  ): Promise<AgentActionOutcome[] | 'stopped'> {
    const outcomes: AgentActionOutcome[] = [];
    for (const [position, action] of batch.entries()) {
      if ((await this.#holdIfPaused()) || this.#stop.signal.aborted) {
        return outcomes.length === 0 ? 'stopped' : outcomes;
      }
      const held = this.#gate === undefined ? 'run' : await holdAtGate(this.#gate, action, state, this.#stop.signal);
      if (held === 'stopped') {
        return outcomes.length === 0 ? 'stopped' : outcomes;
      }
      if (held !== 'run') {
        // The rest of the batch was chosen expecting this action to have run.
        outcomes.push(held);
        break;
      }
      const { result, outcome } = await actTelling(this.#host, action, state, this.#log, this.#onActed);
      if (result.success && !leavesPageSettled(action.name)) {
        this.#unsettled = true;
      }
      outcomes.push({
        name: action.name,
        params: action.params,
        success: result.success,
        extracted_content: result.extracted_content,
        error: result.error,
        error_code: result.error_code,
      });
      const last = position === batch.length - 1;
      if (last || (!result.success && result.error_code === 'CANCELLED')) {
        break;
      }
      // The outcome says whether the page moved on; without one, a look at the tab does.
      const moved = outcome === undefined ? await this.#pageChanged(state) : movedOn(outcome);
      if (changesPage(action.name) || moved) {
        break;
      }
    }
    return outcomes;
  }

  /** Whether the focused tab or its URL moved since the state the model chose its actions on. */
  async #pageChanged(state: StateSummary | null): Promise<boolean> {
    if (state === null) {
      return true;
    }
    try {
      const now = (await this.#host.runAction('state', { include_dom: false })) as StateSummary;
      return now.tab_id !== state.tab_id || now.url !== state.url;
    } catch {
      // A state that cannot be read means the page is not the one the actions were chosen for.
      return true;
    }
  }

  #report(
    decision: ModelDecision,
    url: string,
    actions: AgentActionOutcome[],
    error: string | null,
    promptChars: number,
    shot: StepShot | null,
  ): AgentStepReport {
    return {
      step: this.#step,
      url,
      thinking: decision.thinking,
      next_goal: decision.next_goal,
      actions,
      error,
      model_attempts: decision.attempts,
      prompt_chars: promptChars,
      screenshot: screenshotOf(shot),
    };
  }

  async #record(state: StateSummary | null, shot: StepShot | null, report: AgentStepReport): Promise<void> {
    this.#recorded++;
    this.#history.push({
      step: report.step,
      url: report.url,
      next_goal: report.next_goal ?? report.thinking,
      actions: report.actions,
      error: report.error,
    });
    // What a listener keeps of a step (the run's record, its picture) is not part of the run.
    await Promise.resolve()
      .then(() => this.#onStep?.(report, state, shot))
      .catch((error: unknown) =>
        this.#log.warn(`could not keep step ${report.step}`, { error: errorMessageOf(error) }),
      );
    await this.#emit('step', { run_id: this.runId, ...report });
  }

  async #emit(type: Parameters<AgentHost['emit']>[0], payload: Record<string, unknown>): Promise<void> {
    try {
      await this.#host.emit(type, payload);
    } catch (error) {
      // The timeline is a record of the run, not part of it: a bus that refuses an event does not end the run.
      this.#log.warn(`could not record the agent's ${type} event`, { error: errorMessageOf(error) });
    }
  }
}
