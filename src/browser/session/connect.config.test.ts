import { describe, expect, it } from 'vitest';
import { BrowserConfig, configJsonSchemaOf, defaultBrowserConfig, parseBrowserConfig } from '../config';

describe('connect config', () => {
  it("waits long enough for a pool's queue by default", () => {
    expect(defaultBrowserConfig().connect.timeout_ms).toBeGreaterThanOrEqual(60_000);
    expect(defaultBrowserConfig().connect.backoff_ms.length).toBeGreaterThan(0);
  });

  it('is described in the JSON Schema describe returns, each field with its default', () => {
    const schema = configJsonSchemaOf(BrowserConfig) as {
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
    expect(() => parseBrowserConfig({ connect: { timeout_ms: 10 } })).toThrow(/connect\.timeout_ms/);
    expect(() => parseBrowserConfig({ connect: { backoff_ms: [] } })).toThrow(/connect\.backoff_ms/);
  });
});
