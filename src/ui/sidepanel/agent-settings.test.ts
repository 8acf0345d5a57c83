import { describe, expect, it } from 'vitest';
import { hostPatternOf, modelLine, modelSettingsOf, originOf } from './agent-settings';

describe('agent settings in the panel', () => {
  it('reads the agent section and falls back to the provider default origin', () => {
    const none = modelSettingsOf(undefined);
    expect(none).toEqual({ provider: 'openai', baseUrl: null, model: null });
    expect(originOf(none)).toBe('https://api.openai.com');
    const local = modelSettingsOf({ agent: { provider: 'anthropic', base_url: 'http://127.0.0.1:9/v1', model: 'm' } });
    expect(originOf(local)).toBe('http://127.0.0.1:9');
    expect(hostPatternOf(originOf(local))).toBe('http://127.0.0.1/*');
    expect(hostPatternOf('file:///x')).toBeUndefined();
  });

  it('says what is missing before a run can start', () => {
    expect(modelLine({ provider: 'openai', baseUrl: null, model: null }, false).ok).toBe(false);
    expect(modelLine({ provider: 'openai', baseUrl: 'http://h/v1', model: 'gpt' }, false).text).toBe(
      'gpt via openai at http://h/v1 (no API key saved)',
    );
  });
});
