import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../../test/fakes/memory-store';
import type { TabpilotConfig } from '../../agent/tabpilot-config';
import { TabpilotError } from '../../shared/errors';
import { SettingsStore } from './settings-store';

describe('SettingsStore', () => {
  it('validates, stores and applies a config', async () => {
    const store = memoryStore();
    const applied: TabpilotConfig[] = [];
    const settings = new SettingsStore(store, (config) => applied.push(config));
    const outcome = await settings.save({ cdp_timeout_ms: 1234, allow_evaluate: true });
    expect(outcome.ok).toBe(true);
    expect(applied.at(-1)?.cdp_timeout_ms).toBe(1234);
    expect((store.data['tabpilot.config'] as TabpilotConfig).allow_evaluate).toBe(true);
    expect(settings.config.cdp_timeout_ms).toBe(1234);
  });

  it('stores only what differs from the defaults', async () => {
    const store = memoryStore();
    const settings = new SettingsStore(store, () => undefined);
    await settings.save({
      cdp_timeout_ms: 1234,
      reconnect: { max_attempts: 5 },
      timeouts: { NavigateToUrlEvent: 9000 },
    });
    expect(store.data['tabpilot.config']).toEqual({
      cdp_timeout_ms: 1234,
      reconnect: { max_attempts: 5 },
      timeouts: { NavigateToUrlEvent: 9000 },
    });
    expect(settings.config.reconnect.backoff_ms).toEqual([1000, 2000, 4000]);
  });

  it('refuses an invalid value naming the field, and changes nothing', async () => {
    const store = memoryStore();
    const applied: TabpilotConfig[] = [];
    const settings = new SettingsStore(store, (config) => applied.push(config));
    const outcome = await settings.save({ cdp_timeout_ms: -5 });
    expect(outcome).toMatchObject({ ok: false, error: { field: 'cdp_timeout_ms' } });
    expect(await settings.save({ colour: 'blue' })).toMatchObject({ ok: false, error: { field: 'colour' } });
    expect(applied).toEqual([]);
    expect(store.data).toEqual({});
  });

  it('loads and applies what was saved; a saved config that no longer parses is reported and not applied', async () => {
    const applied: TabpilotConfig[] = [];
    const good = new SettingsStore(memoryStore({ 'tabpilot.config': { cdp_timeout_ms: 999 } }), (c) => applied.push(c));
    expect(await good.load()).toEqual({ ok: true });
    expect(applied.at(-1)?.cdp_timeout_ms).toBe(999);
    const bad = new SettingsStore(memoryStore({ 'tabpilot.config': { removed_field: 1 } }), (c) => applied.push(c));
    expect(await bad.load()).toMatchObject({ ok: false, error: { field: 'removed_field' } });
    expect(applied).toHaveLength(1);
  });

  it('refuses what the platform cannot do, naming the field, and changes nothing', async () => {
    const store = memoryStore();
    const applied: TabpilotConfig[] = [];
    const settings = new SettingsStore(
      store,
      (config) => applied.push(config),
      (config) =>
        config.permissions.includes('midi') ? { field: 'permissions', message: 'cannot grant midi' } : undefined,
    );
    expect(await settings.save({ permissions: ['midi'] })).toEqual({
      ok: false,
      error: { field: 'permissions', message: 'cannot grant midi' },
    });
    expect(applied).toEqual([]);
    expect(store.data).toEqual({});
    expect(await settings.save({ prohibited_domains: ['evil.example/path'] })).toMatchObject({
      ok: false,
      error: { field: 'prohibited_domains.0', message: expect.stringMatching(/malformed domain pattern/) },
    });
  });

  it('waits for the session to act on the config, and reports a watchdog that could not', async () => {
    const order: string[] = [];
    const settings = new SettingsStore(memoryStore(), async () => {
      await Promise.resolve();
      order.push('applied');
      throw Object.assign(
        new TabpilotError('UNSUPPORTED', 'the browser refused vr', { details: { field: 'permissions' } }),
      );
    });
    const outcome = await settings.save({ permissions: ['vr'] });
    order.push('answered');
    expect(order).toEqual(['applied', 'answered']);
    expect(outcome).toEqual({
      ok: false,
      error: { field: 'permissions', message: 'Saved and in force, but: the browser refused vr' },
    });
    expect(settings.config.permissions).toEqual(['vr']);
  });
});
