/**
 * What the agent loop needs of a model, and nothing of how it is reached: a prompt in, the actions it
 * chose out. The AI SDK adapter (ai-sdk-model.ts) is one implementation; unit tests script another.
 */

/** An action the model may call, with the JSON Schema of its params. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly schema: Record<string, unknown>;
}

export interface ModelPrompt {
  readonly system: string;
  readonly user: string;
  /** Base64 image of the page, when vision is on. */
  readonly screenshot: { readonly data: string; readonly mediaType: string } | null;
  readonly tools: readonly ToolSpec[];
}

export interface ModelAction {
  readonly name: string;
  readonly params: unknown;
}

export interface ModelDecision {
  readonly thinking: string | null;
  readonly next_goal: string | null;
  readonly actions: readonly ModelAction[];
  /** Requests it took, retries included. */
  readonly attempts: number;
}

export interface AgentModel {
  readonly provider: string;
  readonly name: string;
  decide(prompt: ModelPrompt, signal: AbortSignal): Promise<ModelDecision>;
}

/** The model could not be reached or kept failing (after the retries), or its answer could not be read. */
export class ModelError extends Error {
  readonly attempts: number;
  readonly retryable: boolean;
  constructor(message: string, options: { attempts: number; retryable?: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ModelError';
    this.attempts = options.attempts;
    this.retryable = options.retryable ?? false;
  }
}
