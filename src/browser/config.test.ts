import { describe, expect, it } from 'vitest';
import { BrowserConfig, ConfigError, configJsonSchemaOf, defaultBrowserConfig, parseBrowserConfig } from './config';

describe('config', () => {
  it('has defaults for every field', () => {
    const config = defaultBrowserConfig();
    expect(config.cdp_timeout_ms).toBe(30_000);
    expect(config.reconnect.max_attempts).toBe(3);
    expect(config.timeouts).toEqual({});
  });

  it('refuses an unknown field, naming it', () => {
    expect(() => parseBrowserConfig({ reconnect: { max_attemps: 2 } })).toThrow(
      /reconnect\.max_attemps: unknown field/,
    );
    expect(() => parseBrowserConfig({ bogus: 1 })).toThrow(ConfigError);
  });

  it('refuses a bad value, naming the field', () => {
    expect(() => parseBrowserConfig({ cdp_timeout_ms: -5 })).toThrow(/cdp_timeout_ms/);
  });

  it('accepts timeouts only for known event names', () => {
    expect(parseBrowserConfig({ timeouts: { NavigateToUrlEvent: 5000 } }).timeouts).toEqual({
      NavigateToUrlEvent: 5000,
    });
    expect(() => parseBrowserConfig({ timeouts: { NavigateEvent: 5000 } })).toThrow(/timeouts\.NavigateEvent/);
  });

  it('exports a JSON Schema with every top-level field', () => {
    const schema = configJsonSchemaOf(BrowserConfig) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['timeouts', 'cdp_timeout_ms', 'reconnect', 'launch', 'viewport']),
    );
  });
});

describe("the browser's part of the config", () => {
  it("knows none of the agent's fields: the agent's layer adds them (src/agent/tabpilot-config.ts)", () => {
    expect(Object.keys(BrowserConfig.shape)).not.toContain('agent');
    expect(() => parseBrowserConfig({ agent: { max_steps: 5 } })).toThrow(/field agent: unknown field/);
  });
});
