import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  APICallError,
  ToolChoiceViolationError,
  generateText,
  jsonSchema,
  tool,
  type LanguageModel,
  type ModelMessage,
  type ToolSet,
} from 'ai';
import type { AgentConfig } from './agent.config';
import { MalformedOutputError, parseTextDecision } from './json-output';
import { ModelError, type AgentModel, type ModelAction, type ModelDecision, type ModelPrompt } from './model';
import { RetriesExhaustedError, retryAfterMs, withRetries, type AttemptFailure } from './retry';

export interface ModelSettings {
  readonly provider: AgentConfig['provider'];
  readonly model: string;
  readonly baseUrl: string | null;
  readonly apiKey: string | null;
  readonly mode: AgentConfig['tool_calling'];
  readonly maxOutputTokens: number;
  readonly requestTimeoutMs: number;
  readonly retry: { readonly maxRetries: number; readonly baseMs: number; readonly maxWaitMs: number };
  /** Headers sent with every request (the extension's worker adds the one Anthropic asks of browsers). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Each retry, for the log (the step's event counts the attempts). */
  readonly onRetry?: (message: string, delayMs: number, attempt: number) => void;
}

const DEFAULT_BASE_URL = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com/v1' } as const;

function languageModel(settings: ModelSettings): LanguageModel {
  const baseURL = settings.baseUrl ?? DEFAULT_BASE_URL[settings.provider];
  const apiKey = settings.apiKey ?? undefined;
  const common = { baseURL, ...(apiKey === undefined ? {} : { apiKey }), headers: { ...settings.headers } };
  if (settings.provider === 'anthropic') {
    return createAnthropic(common)(settings.model);
  }
  // The chat-completions model speaks to any OpenAI-compatible server at any base URL.
  return createOpenAICompatible({ name: 'openai', ...common }).chatModel(settings.model);
}

class TimeoutFailure extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimeoutFailure';
  }
}

function classify(error: unknown): AttemptFailure {
  if (error instanceof TimeoutFailure) {
    return { retryable: true, retryAfterMs: null, message: error.message };
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const retryable =
      status === 429 || (status !== undefined && status >= 500) || (status === undefined && error.isRetryable);
    const body = (error.responseBody ?? '').slice(0, 300);
    return {
      retryable,
      retryAfterMs: retryAfterMs(error.responseHeaders),
      message: `${status === undefined ? '' : `HTTP ${status}: `}${error.message}${body === '' || error.message.includes(body) ? '' : ` (${body})`}`,
    };
  }
  if (error instanceof MalformedOutputError) {
    return { retryable: false, retryAfterMs: null, message: `the answer could not be read: ${error.message}` };
  }
  return { retryable: false, retryAfterMs: null, message: error instanceof Error ? error.message : String(error) };
}

function repairedInput(input: unknown): unknown {
  if (typeof input !== 'string') {
    return input;
  }
  try {
    return JSON.parse(input);
  } catch {
    // A tool input that is not JSON: repaired as the text path would, else passed on for the registry to refuse.
    const repaired = input.replace(/,\s*([}\]])/g, '$1');
    try {
      return JSON.parse(repaired);
    } catch {
      return input;
    }
  }
}

function messagesOf(prompt: ModelPrompt): ModelMessage[] {
  if (prompt.screenshot === null) {
    return [{ role: 'user', content: prompt.user }];
  }
  return [
    {
      role: 'user',
      content: [
        { type: 'text', text: prompt.user },
        { type: 'image', image: prompt.screenshot.data, mediaType: prompt.screenshot.mediaType },
      ],
    },
  ];
}

function textOfContent(content: ReadonlyArray<{ type: string; text?: unknown }>): string {
  return content.map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('\n');
}

function toolSetOf(prompt: ModelPrompt): ToolSet {
  const tools: ToolSet = {};
  for (const spec of prompt.tools) {
    tools[spec.name] = tool({ description: spec.description, inputSchema: jsonSchema(spec.schema) });
  }
  return tools;
}

/** A model reached through the AI SDK's providers (fetch-based: the same code in Node and the MV3 worker). */
export class AiSdkModel implements AgentModel {
  readonly provider: string;
  readonly name: string;
  readonly #settings: ModelSettings;
  readonly #model: LanguageModel;

  constructor(settings: ModelSettings) {
    this.#settings = settings;
    this.provider = settings.provider;
    this.name = settings.model;
    this.#model = languageModel(settings);
  }

  async decide(prompt: ModelPrompt, signal: AbortSignal): Promise<ModelDecision> {
    const settings = this.#settings;
    try {
      const { value, attempts } = await withRetries(
        settings.retry,
        signal,
        () => this.#attempt(prompt, signal),
        classify,
        (failure, delayMs, attempt) => settings.onRetry?.(failure.message, delayMs, attempt),
      );
      return { ...value, attempts };
    } catch (error) {
      signal.throwIfAborted();
      if (error instanceof RetriesExhaustedError) {
        throw new ModelError(error.message, { attempts: error.attempts, cause: error.cause });
      }
      throw error;
    }
  }

  async #attempt(prompt: ModelPrompt, stop: AbortSignal): Promise<Omit<ModelDecision, 'attempts'>> {
    const settings = this.#settings;
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new TimeoutFailure(settings.requestTimeoutMs)),
      settings.requestTimeoutMs,
    );
    try {
      const common = {
        model: this.#model,
        system: prompt.system,
        messages: messagesOf(prompt),
        maxRetries: 0,
        maxOutputTokens: settings.maxOutputTokens,
        abortSignal: AbortSignal.any([stop, timeout.signal]),
      };
      if (settings.mode === 'json') {
        const result = await generateText(common);
        return parseTextDecision(result.text);
      }
      let result;
      try {
        result = await generateText({ ...common, tools: toolSetOf(prompt), toolChoice: 'required' });
      } catch (error) {
        if (ToolChoiceViolationError.isInstance(error)) {
          // A model that answered in text despite the tools: its text may still hold the JSON form.
          return parseTextDecision(textOfContent(error.content));
        }
        throw error;
      }
      const thinking = result.text.trim() === '' ? null : result.text.trim();
      const actions: ModelAction[] = result.toolCalls.map((call) => ({
        name: call.toolName,
        params: repairedInput(call.input),
      }));
      return actions.length === 0 ? parseTextDecision(result.text) : { thinking, next_goal: null, actions };
    } catch (error) {
      if (timeout.signal.aborted && !stop.aborted) {
        throw new TimeoutFailure(settings.requestTimeoutMs);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

export { ModelError };
