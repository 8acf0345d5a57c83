import { Agent, type AgentHost } from '../src/agent/agent';
import { agentConnection } from '../src/agent/agent-connection';
import type { AgentModel, ModelPrompt } from '../src/agent/model';
import { parseConfig } from '../src/agent/tabpilot-config';
import { createDefaultRegistry } from '../src/tools/actions';
import type { PageServer } from './page-server';
import { openSides, SETTLE } from './sides';
import { median, round } from './stats';

export interface AgentPromptRow {
  page: string;
  system_chars: number;
  user_chars: number;
  prompt_chars: number;
  /** Characters / 4: the usual rough estimate for English text and markup. */
  prompt_tokens_est: number;
  tool_schema_chars: number;
  playwright_snapshot_chars: number;
  step_ms: number;
  state_ms: number;
  /** The loop's own time per step: the step minus its time on the action road (its state and its action). */
  overhead_ms: number;
  /** The same steps with agent.step_screenshots off: what a step's picture adds is step_ms minus this. */
  step_ms_no_shot: number;
  /** A step's own picture (a 480 px JPEG, taken after the state while the model thinks): its capture time and size. */
  shot_ms: number;
  shot_bytes: number;
  /** What the picture adds to a step whose model takes SLOW_MODEL_MS to answer (with minus without). */
  shot_cost_slow_model_ms: number;
}

/** A model as slow as a fast real one, to see whether the picture is taken in the time it thinks. */
const SLOW_MODEL_MS = 250;

/** A model that answers at once (or after `delayMs`): a no-op action each step, then done. */
class InstantModel implements AgentModel {
  readonly provider = 'bench';
  readonly name = 'instant';
  readonly prompts: ModelPrompt[] = [];
  readonly #steps: number;
  readonly #delayMs: number;
  constructor(steps: number, delayMs = 0) {
    this.#steps = steps;
    this.#delayMs = delayMs;
  }
  async decide(
    prompt: ModelPrompt,
  ): Promise<{ thinking: null; next_goal: null; actions: Array<{ name: string; params: unknown }>; attempts: number }> {
    this.prompts.push(prompt);
    const last = this.prompts.length > this.#steps;
    if (this.#delayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, this.#delayMs));
    }
    return {
      thinking: null,
      next_goal: null,
      actions: last
        ? [{ name: 'done', params: { text: 'ok', success: true } }]
        : [{ name: 'wait', params: { seconds: 0 } }],
      attempts: 1,
    };
  }
}

/**
 * The agent's prompt per step on the benchmark pages (characters and estimated tokens) beside
 * Playwright MCP's snapshot of the same page, and the loop's own overhead per step with a model that
 * answers at once (the step's time minus its state and its action).
 */
export async function benchAgent(
  pages: PageServer,
  options: { pageNames: string[]; steps: number },
): Promise<AgentPromptRow[]> {
  const sides = await openSides('bench-agent');
  const rows: AgentPromptRow[] = [];
  try {
    // Time spent on the action road (states, pictures and actions): the rest of a step is the loop's own.
    // With a model that answers at once, the picture taken while it thinks is waited for in full.
    let roadMs = 0;
    let shotMs: number[] = [];
    let shotBytes: number[] = [];
    // The agent's own road, as serverHost gives it: a client connection of its own.
    const connection = agentConnection(sides.server, { id: 'bench-agent', kind: 'agent' });
    const host: AgentHost = {
      runAction: async (name, params) => {
        const started = performance.now();
        const answer = await connection.run(name, params);
        if (name === 'screenshot') {
          shotMs.push(performance.now() - started);
          shotBytes.push(Math.floor(((answer as { data: string }).data.length * 3) / 4));
        }
        roadMs += performance.now() - started;
        return answer;
      },
      emit: () => Promise.resolve(),
      onEmergencyStop: () => () => undefined,
      actions: createDefaultRegistry().describe(),
      secretNames: [],
    };
    const config = parseConfig({ agent: { settle_ms: 0, max_steps: options.steps + 1 } }).agent;
    /** Runs the instant model for `steps` steps and a done; answers each step's time and the loop's own. */
    const runSteps = async (
      runId: string,
      settings: typeof config,
      modelMs = 0,
    ): Promise<{ model: InstantModel; stepTimes: number[]; overheads: number[] }> => {
      const model = new InstantModel(options.steps, modelMs);
      const stepTimes: number[] = [];
      const overheads: number[] = [];
      let last = performance.now();
      const agent = new Agent({
        runId,
        host,
        model,
        config: settings,
        onStep: () => {
          const now = performance.now();
          stepTimes.push(now - last);
          overheads.push(now - last - roadMs);
          roadMs = 0;
          last = now;
        },
      });
      roadMs = 0;
      last = performance.now();
      await agent.run('Benchmark: look at the page.');
      return { model, stepTimes: stepTimes.slice(0, options.steps), overheads: overheads.slice(0, options.steps) };
    };
    for (const name of options.pageNames) {
      const url = pages.url(name);
      await sides.command('navigate', { url, timeout_ms: 60_000 });
      await sides.evaluate(SETTLE);
      await sides.page.goto(url, { waitUntil: 'load', timeout: 0 });
      const snapshot = await sides.page.ariaSnapshot({ mode: 'ai', timeout: 0 });
      const stateMs: number[] = [];
      for (let run = 0; run < options.steps; run++) {
        const started = performance.now();
        await sides.command('state', { include_screenshot: false });
        stateMs.push(performance.now() - started);
      }
      const plain = await runSteps(`bench-plain-${name}`, { ...config, step_screenshots: false });
      const slowPlain = await runSteps(
        `bench-slow-plain-${name}`,
        { ...config, step_screenshots: false },
        SLOW_MODEL_MS,
      );
      const slow = await runSteps(`bench-slow-${name}`, config, SLOW_MODEL_MS);
      shotMs = [];
      shotBytes = [];
      const { model, stepTimes, overheads } = await runSteps(`bench-${name}`, config);
      const prompt = model.prompts[0];
      const system = prompt?.system.length ?? 0;
      const user = prompt?.user.length ?? 0;
      const toolChars = JSON.stringify(prompt?.tools ?? []).length;
      const stepMs = median(stepTimes);
      const state = median(stateMs);
      rows.push({
        page: name,
        system_chars: system,
        user_chars: user,
        prompt_chars: system + user + toolChars,
        prompt_tokens_est: Math.round((system + user + toolChars) / 4),
        tool_schema_chars: toolChars,
        playwright_snapshot_chars: snapshot.length,
        step_ms: round(stepMs, 1),
        state_ms: round(state, 1),
        overhead_ms: round(median(overheads), 2),
        step_ms_no_shot: round(median(plain.stepTimes), 1),
        shot_ms: round(median(shotMs), 1),
        shot_bytes: Math.round(median(shotBytes)),
        shot_cost_slow_model_ms: round(median(slow.stepTimes) - median(slowPlain.stepTimes), 1),
      });
    }
    connection.close();
  } finally {
    await sides.close();
  }
  return rows;
}
