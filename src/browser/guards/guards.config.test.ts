import { describe, expect, it } from 'vitest';
import { ConfigError, defaultBrowserConfig, parseBrowserConfig } from '../config';

describe('guard config', () => {
  it('defaults: both guards on, browser-use bounds', () => {
    const config = defaultBrowserConfig();
    expect(config.crash).toMatchObject({ enabled: true, unresponsive_after_ms: 30_000, network_timeout_ms: 30_000 });
    expect(config.captcha).toMatchObject({ enabled: true, wait_timeout_ms: 120_000 });
    expect(config.state.hidden_text).toBe('omit');
  });

  it.each([
    ['crash.health_check_interval_ms', { crash: { health_check_interval_ms: -1 } }],
    ['crash.unresponsive_after_ms', { crash: { unresponsive_after_ms: -5 } }],
    ['crash.network_timeout_ms', { crash: { network_timeout_ms: -100 } }],
    ['captcha.wait_timeout_ms', { captcha: { wait_timeout_ms: -1 } }],
    ['captcha.poll_ms', { captcha: { poll_ms: -1 } }],
    ['state.hidden_text', { state: { hidden_text: 'show' } }],
  ])('refuses a bad %s at start, naming the field', (field, input) => {
    expect(() => parseBrowserConfig(input)).toThrow(ConfigError);
    expect(() => parseBrowserConfig(input)).toThrow(`config field ${field}:`);
  });
});
