import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { parseBrowserConfig } from '../config';
import { BrowserReplacedEvent } from '../../protocol/events/connection.events';
import { BrowserErrorEvent } from '../../protocol/events/lifecycle.events';
import { BrowserSession } from '../session';
import { cdpPermissionGranter } from './cdp-permission-granter';
import type { PermissionGranter } from './permission-granter';
import { permissionsWatchdog } from './permissions.watchdog';

function grants(browser: FakeBrowser): unknown[] {
  return browser.sent
    .filter((m) => m.method === 'Browser.grantPermissions')
    .map((m) => (m.params as { permissions: unknown }).permissions);
}

describe('PermissionsWatchdog', () => {
  it('grants the configured permissions to every origin on connect (Node: Browser.grantPermissions)', async () => {
    const browser = new FakeBrowser();
    await startedFakeSession({
      browser,
      config: { permissions: ['geolocation', 'clipboardReadWrite'] },
      watchdogs: [permissionsWatchdog],
      host: { tabControl: undefined, permissions: cdpPermissionGranter },
    });
    expect(browser.sentMethods()).toContain('Browser.resetPermissions');
    expect(grants(browser)).toEqual([['geolocation', 'clipboardReadWrite']]);
    const call = browser.sent.find((m) => m.method === 'Browser.grantPermissions');
    expect(call?.params).not.toHaveProperty('origin');
  });

  it('sends nothing when no permission is configured', async () => {
    const browser = new FakeBrowser();
    await startedFakeSession({
      browser,
      watchdogs: [permissionsWatchdog],
      host: { tabControl: undefined, permissions: cdpPermissionGranter },
    });
    expect(
      browser.sentMethods().filter((method) => method.startsWith('Browser.') && method !== 'Browser.getVersion'),
    ).toEqual([]);
  });

  it('names each permission the browser refuses, grants the rest, and reports it at connect', async () => {
    const browser = new FakeBrowser();
    browser.responders.set('Browser.grantPermissions', (params) => {
      if ((params['permissions'] as string[]).includes('vr')) {
        throw new Error("Permission can't be granted in current context.");
      }
      return {};
    });
    const { session } = await startedFakeSession({
      browser,
      config: { permissions: ['notifications', 'vr'] },
      watchdogs: [permissionsWatchdog],
      host: { tabControl: undefined, permissions: cdpPermissionGranter },
    });
    expect(grants(browser)).toEqual([['notifications', 'vr'], ['notifications'], ['vr']]);
    const error = await session.bus.find(BrowserErrorEvent, {
      where: (event) => event.payload.error_type === 'PermissionsNotGranted',
    });
    expect(error?.payload.message).toMatch(/refused to grant vr \(.*can't be granted/);
    expect(error?.payload.message).not.toMatch(/notifications/);
  });

  it('applies a changed list at once, withdrawing what was removed, and fails the change when it cannot', async () => {
    const browser = new FakeBrowser();
    const { session } = await startedFakeSession({
      browser,
      config: { permissions: ['notifications'] },
      watchdogs: [permissionsWatchdog],
      host: { tabControl: undefined, permissions: cdpPermissionGranter },
    });
    await session.applyConfig(parseBrowserConfig({ ...session.config, permissions: ['geolocation'] }));
    expect(grants(browser)).toEqual([['notifications'], ['geolocation']]);
    await session.applyConfig(parseBrowserConfig({ ...session.config, permissions: [] }));
    expect(browser.sentMethods().filter((method) => method === 'Browser.resetPermissions')).toHaveLength(3);
    expect(grants(browser)).toHaveLength(2);

    const limited: PermissionGranter = { via: 'a limited host', grantable: ['notifications'], apply: async () => {} };
    const other = await startedFakeSession({
      watchdogs: [permissionsWatchdog],
      host: { tabControl: undefined, permissions: limited },
    });
    await expect(
      other.session.applyConfig(
        parseBrowserConfig({ ...other.session.config, permissions: ['midi', 'notifications', 'nfc'] }),
      ),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED',
      message: 'permissions: a limited host cannot grant midi, nfc (it can grant notifications)',
      details: { field: 'permissions', refused: ['midi', 'nfc'] },
    });
  });

  it('grants them again in a browser that replaced the lost one (a pool hands out another)', async () => {
    const named = (id: string): FakeBrowser => {
      const browser = new FakeBrowser();
      browser.addPage('about:blank');
      browser.responders.set('Target.getBrowserContexts', () => ({
        browserContextIds: [],
        defaultBrowserContextId: id,
      }));
      return browser;
    };
    const first = named('browser-A');
    const second = named('browser-B');
    const transports = [first.transport, second.transport];
    const session = new BrowserSession({
      config: parseBrowserConfig({
        permissions: ['geolocation'],
        reconnect: { max_attempts: 3, backoff_ms: [5], attempt_timeout_ms: 2000, wait_ms: 5000 },
      }),
      endpoint: 'ws://pool.test/',
      openTransport: () => Promise.resolve(transports.shift() ?? second.transport),
      host: { tabControl: undefined, permissions: cdpPermissionGranter },
      watchdogs: [permissionsWatchdog],
    });
    await session.start();
    expect(grants(first)).toEqual([['geolocation']]);
    first.drop('socket closed (1006)');
    await expect(session.bus.find(BrowserReplacedEvent, { future: 5000 })).resolves.toBeDefined();
    await session.bus.waitUntilIdle();
    expect(grants(second)).toEqual([['geolocation']]);
    await session.stop();
  });
});
