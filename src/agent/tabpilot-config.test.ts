import { describe, expect, it } from 'vitest';
import { BrowserConfig, ConfigError } from '../browser/config';
import { configJsonSchema, defaultConfig, parseConfig, SERVED_CONFIG, TabpilotConfig } from './tabpilot-config';

describe('the one config: the browser part and the agent part, composed', () => {
  it("holds every browser field and the agent's section, in the order the panel and the reference list them", () => {
    const fields = Object.keys(TabpilotConfig.shape);
    const browser = Object.keys(BrowserConfig.shape);
    expect(fields.filter((field) => field !== 'agent')).toEqual(browser);
    // The agent's section stands where it always has: right before the indicator's switch, the last field.
    expect(fields.slice(-2)).toEqual(['agent', 'control_indicator']);
    expect(defaultConfig().agent.max_steps).toBe(50);
  });

  it('stays strict at every level, naming the unknown field', () => {
    expect(() => parseConfig({ bogus: 1 })).toThrow(ConfigError);
    expect(() => parseConfig({ bogus: 1 })).toThrow(/field bogus: unknown field/);
    expect(() => parseConfig({ agent: { max_step: 5 } })).toThrow(/field agent\.max_step: unknown field/);
    expect(() => parseConfig({ reconnect: { max_attemps: 2 } })).toThrow(/reconnect\.max_attemps: unknown field/);
    expect(() => parseConfig({ agent: { max_steps: 0 } })).toThrow(/field agent\.max_steps/);
  });

  it('serves its field names and its JSON Schema, the agent section included', () => {
    expect(SERVED_CONFIG.fields.has('agent')).toBe(true);
    expect(SERVED_CONFIG.fields.has('allowed_domains')).toBe(true);
    const schema = SERVED_CONFIG.jsonSchema() as {
      properties: Record<string, unknown>;
      additionalProperties?: unknown;
    };
    expect(schema).toEqual(configJsonSchema());
    expect(Object.keys(schema.properties)).toEqual([...SERVED_CONFIG.fields]);
    expect(schema.additionalProperties).toBe(false);
  });
});
