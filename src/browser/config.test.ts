import { describe, expect, it } from 'vitest';
import { ConfigError, configJsonSchema, defaultConfig, parseConfig } from './config';

describe('config', () => {
  it('has defaults for every field', () => {
    const config = defaultConfig();
    expect(config.cdp_timeout_ms).toBe(30_000);
    expect(config.reconnect.max_attempts).toBe(3);
    expect(config.timeouts).toEqual({});
  });

  it('refuses an unknown field, naming it', () => {
    expect(() => parseConfig({ reconnect: { max_attemps: 2 } })).toThrow(/reconnect\.max_attemps: unknown field/);
    expect(() => parseConfig({ bogus: 1 })).toThrow(ConfigError);
  });

  it('refuses a bad value, naming the field', () => {
    expect(() => parseConfig({ cdp_timeout_ms: -5 })).toThrow(/cdp_timeout_ms/);
  });

  it('accepts timeouts only for known event names', () => {
    expect(parseConfig({ timeouts: { NavigateToUrlEvent: 5000 } }).timeouts).toEqual({ NavigateToUrlEvent: 5000 });
    expect(() => parseConfig({ timeouts: { NavigateEvent: 5000 } })).toThrow(/timeouts\.NavigateEvent/);
  });

  it('exports a JSON Schema with every top-level field', () => {
    const schema = configJsonSchema() as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['timeouts', 'cdp_timeout_ms', 'reconnect', 'launch', 'viewport']),
    );
  });
});
