import type { AgentConfig } from './agent.config';
import { AiSdkModel } from './ai-sdk-model';

/** The model a config's `agent` settings name, with the key from wherever the entry keeps it. */
export function modelFromConfig(
  settings: AgentConfig & { model: string },
  apiKey: string | null,
  onRetry?: (message: string, delayMs: number, attempt: number) => void,
  headers?: Readonly<Record<string, string>>,
): AiSdkModel {
  return new AiSdkModel({
    provider: settings.provider,
    model: settings.model,
    baseUrl: settings.base_url,
    apiKey,
    mode: settings.tool_calling,
    maxOutputTokens: settings.max_output_tokens,
    requestTimeoutMs: settings.request_timeout_ms,
    retry: { maxRetries: settings.max_retries, baseMs: settings.retry_base_ms, maxWaitMs: settings.retry_max_wait_ms },
    ...(onRetry === undefined ? {} : { onRetry }),
    ...(headers === undefined ? {} : { headers }),
  });
}
