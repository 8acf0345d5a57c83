import { Agent, type AgentHost } from '../src/agent/agent';
import type { AgentModel, ModelPrompt } from '../src/agent/model';
import { parseConfig } from '../src/browser/config';
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
  /** A step's own picture (a 480 px JPEG, taken beside the state): its capture time and size. */
  shot_ms: number;
  shot_bytes: number;
}

/** A model that answers at once: a no-op action each step, then done. */
class InstantModel implements AgentModel {
  readonly provider = 'bench';
  readonly name = 'instant';
  readonly prompts: ModelPrompt[] = [];
  readonly #steps: number;
  constructor(steps: number) {
    this.#steps = steps;
  }
  decide(
    prompt: ModelPrompt,
  ): Promise<{ thinking: null; next_goal: null; actions: Array<{ name: string; params: unknown }>; attempts: number }> {
    this.prompts.push(prompt);
    const last = this.prompts.length > this.#steps;
    return Promise.resolve({
      thinking: null,
      next_goal: null,
      actions: last
        ? [{ name: 'done', params: { text: 'ok', success: true } }]
        : [{ name: 'wait', params: { seconds: 0 } }],
      attempts: 1,
    });
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
    // Time spent on the action road (states and actions): the rest of a step is the loop's own. A step's
    // picture is taken beside its state, so its time is counted apart, as are its bytes.
    let roadMs = 0;
    let shotMs: number[] = [];
    let shotBytes: number[] = [];
    // The agent's own road: the server's runAction, as serverHost gives it (no client request queue).
    const context = sides.server.contextFor({ id: 'bench-agent', kind: 'agent' });
    const host: AgentHost = {
      runAction: async (name, params) => {
        const started = performance.now();
        const answer = await sides.server.runAction(name, params, context);
        if (name === 'screenshot') {
          shotMs.push(performance.now() - started);
          shotBytes.push(Math.floor(((answer as { data: string }).data.length * 3) / 4));
        } else {
          roadMs += performance.now() - started;
        }
        return answer;
      },
      emit: () => Promise.resolve(),
      redact: (value) => value,
      onEmergencyStop: () => () => undefined,
      actions: createDefaultRegistry().describe(),
      secretNames: [],
    };
    const config = parseConfig({ agent: { settle_ms: 0, max_steps: options.steps + 1 } }).agent;
    /** Runs the instant model for `steps` steps and a done; answers each step's time and the loop's own. */
    const runSteps = async (
      runId: string,
      settings: typeof config,
    ): Promise<{ model: InstantModel; stepTimes: number[]; overheads: number[] }> => {
      const model = new InstantModel(options.steps);
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
      });
    }
  } finally {
    await sides.close();
  }
  return rows;
}
