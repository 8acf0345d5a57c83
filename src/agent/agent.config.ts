import { z } from 'zod';
import { ACTIONS } from '../protocol/actions';
import { AgentRisk } from '../protocol/events/agent.events';

/*
 * The agent's fields of the one config. The browser layer knows only its own part (src/browser/config.ts);
 * tabpilot-config.ts composes the whole here, in the agent's layer, above the browser's (DESIGN §1 layer order).
 */

/** Actions the agent is not offered by default: the person's controls and what it gets every step anyway. */
const AGENT_EXCLUDED_ACTIONS = ACTIONS.filter((action) => action.notForAgent === true).map((action) => action.name);

const Agent = z
  .strictObject({
    provider: z
      .enum(['openai', 'anthropic'])
      .default('openai')
      .describe(
        'openai: any OpenAI-compatible chat-completions server (OpenAI, OpenRouter, Ollama, LM Studio, vLLM, Groq, DeepSeek); anthropic: the Anthropic messages API',
      ),
    base_url: z
      .string()
      .url()
      .nullable()
      .default(null)
      .describe(
        'The API base URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1; null: the provider default',
      ),
    model: z.string().min(1).nullable().default(null).describe('The model name the server knows, e.g. gpt-4.1-mini'),
    tool_calling: z
      .enum(['tools', 'json'])
      .default('tools')
      .describe('tools: actions as tool calls; json: for models without tool calling, actions as JSON in the text'),
    use_vision: z.boolean().default(false).describe('Send a screenshot of the page with each step'),
    step_screenshots: z
      .boolean()
      .default(true)
      .describe(
        "Keep a picture of the page each step acted on, for the panel's run view and run_screenshot: the model's screenshot when use_vision is on, else a small JPEG (at most 480 px a side) taken right after the state, while the model thinks",
      ),
    max_steps: z.number().int().min(1).max(1000).default(50).describe('Steps before the run gives up'),
    max_failures: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(3)
      .describe(
        'Consecutive failed steps (a model that cannot be reached or read, every action failing) that end the run',
      ),
    max_actions_per_step: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(5)
      .describe('Actions the model may batch in one step'),
    loop_repeats: z
      .number()
      .int()
      .min(2)
      .max(20)
      .default(3)
      .describe(
        'The same actions on the same page this many times in a row gets the model a warning that it is looping',
      ),
    settle_ms: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .default(500)
      .describe(
        'Pause before reading the state after a step whose actions may have started a navigation (a click, keys, a selection): a navigation a click starts is not seen until it commits',
      ),
    max_output_tokens: z.number().int().min(16).max(200_000).default(4096).describe('The model answer budget per step'),
    request_timeout_ms: z
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(120_000)
      .describe('One model request, whole; a slower one is abandoned and retried'),
    max_retries: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(3)
      .describe('Retries of a model request after a rate limit (429), a server error (5xx) or a timeout'),
    retry_base_ms: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .default(1000)
      .describe('The first pause before a retry (doubling each time) when the server sends no Retry-After'),
    retry_max_wait_ms: z
      .number()
      .int()
      .min(0)
      .max(600_000)
      .default(60_000)
      .describe('The longest pause before a retry, a Retry-After included'),
    approval: z
      .boolean()
      .nullable()
      .default(null)
      .describe(
        "Ask the person before the agent runs an action of a class in agent.risky (in the panel, or on the terminal for tabpilot run); null: on wherever the browser may be the person's (the extension, a cdp_url, a launch with user_data_dir), off for a launch's temporary profile",
      ),
    risky: z
      .array(AgentRisk)
      .default([...AgentRisk.options])
      .describe(
        'The classes of action that wait for approval: upload (upload_file), download (a link that downloads, a navigation to a file), evaluate, cross_origin_form (submitting a form whose action is another origin: by its button, a click inside it that its script may turn into a submit, or Enter in its field, focused or not), new_domain (a navigation, new tab, link, search, go_back or go_forward to a registrable domain the run has not been on)',
      ),
    max_kept_runs: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(50)
      .describe('Past runs kept for runs, run_history and rerun; the oldest go first'),
    exclude_actions: z
      .array(z.string().min(1))
      .default(AGENT_EXCLUDED_ACTIONS)
      .describe('Protocol actions the model is not offered'),
  })
  .describe(
    "The built-in agent (tabpilot run, the side panel's task box); the API key comes from the environment in Node, from the panel's Agent API key in the extension",
  );

export type AgentConfig = z.output<typeof Agent>;

export const AGENT_CONFIG = {
  agent: Agent.default(Agent.parse({})),
};
