import { fieldOf } from '../../shared/narrow';

/** The agent's model settings as the panel reads them from the config in force. */
export interface ModelSettingsView {
  readonly provider: 'openai' | 'anthropic';
  readonly baseUrl: string | null;
  readonly model: string | null;
}

const DEFAULT_BASE_URL = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com/v1' } as const;

export function modelSettingsOf(config: Record<string, unknown> | undefined): ModelSettingsView {
  const agent = config?.['agent'];
  const provider = fieldOf(agent, 'provider') === 'anthropic' ? 'anthropic' : 'openai';
  const baseUrl = fieldOf(agent, 'base_url');
  const model = fieldOf(agent, 'model');
  return {
    provider,
    baseUrl: typeof baseUrl === 'string' ? baseUrl : null,
    model: typeof model === 'string' ? model : null,
  };
}

/** The origin the model's requests go to (the provider's default when no base URL is set). */
export function originOf(settings: ModelSettingsView): string {
  const url = settings.baseUrl ?? DEFAULT_BASE_URL[settings.provider];
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * The host permission pattern for an origin: scheme and host, any port (Chrome's match patterns leave the
 * port out to match them all), so one grant covers a local server that moves to another port.
 */
export function hostPatternOf(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.protocol}//${url.hostname}/*` : undefined;
  } catch {
    return undefined;
  }
}

/** One line saying which model the agent will use, or what is missing. */
export function modelLine(settings: ModelSettingsView, hasKey: boolean): { ok: boolean; text: string } {
  if (settings.model === null) {
    return { ok: false, text: 'No model set: choose one under Settings → Agent (agent.model).' };
  }
  const where = settings.baseUrl ?? DEFAULT_BASE_URL[settings.provider];
  const key = hasKey ? '' : ' (no API key saved)';
  return { ok: true, text: `${settings.model} via ${settings.provider} at ${where}${key}` };
}
