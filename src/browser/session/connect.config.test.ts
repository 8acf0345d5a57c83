import { describe, expect, it } from 'vitest';
import { configJsonSchema, defaultConfig, parseConfig } from '../config';

describe('connect config', () => {
  it("waits long enough for a pool's queue by default", () => {
    expect(defaultConfig().connect.timeout_ms).toBeGreaterThanOrEqual(60_000);
    expect(defaultConfig().connect.backoff_ms.length).toBeGreaterThan(0);
  });

  it('is described in the JSON Schema describe returns, each field with its default', () => {
    const schema = configJsonSchema() as {
      properties: {
        connect: { description: string; properties: Record<string, { description?: string; default?: unknown }> };
      };
    };
    const connect = schema.properties.connect;
    expect(connect.description).toMatch(/pool/);
    for (const field of ['timeout_ms', 'backoff_ms']) {
      expect(connect.properties[field]?.description, field).toBeTruthy();
      expect(connect.properties[field]?.default, field).toBeDefined();
    }
  });

  it('refuses a bad budget, naming the field', () => {
    expect(() => parseConfig({ connect: { timeout_ms: 10 } })).toThrow(/connect\.timeout_ms/);
    expect(() => parseConfig({ connect: { backoff_ms: [] } })).toThrow(/connect\.backoff_ms/);
  });
});
