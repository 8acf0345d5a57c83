import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineEmulationContract } from './contract/emulation-contract';
import { ExtensionDriver } from './harness/drivers';
import { FixtureServer } from './harness/fixture-server';

// chrome.debugger has no Browser domain to grant geolocation to one origin: the config's permissions
// grant it to every site (chrome.contentSettings), as a person would turn it on in the settings.
defineEmulationContract(
  'the extension chrome.debugger transport',
  async () => {
    const driver = await ExtensionDriver.start();
    await driver.setConfig({ permissions: ['geolocation'] });
    return driver;
  },
  {
    geolocationPermission: 'granted_by_config',
    releaseAndAttach: async (driver, tabId) => {
      await driver.ok('release', { tab_id: tabId });
      await driver.ok('attach', { tab_id: tabId });
      return tabId;
    },
  },
);

describe('emulate over chrome.debugger without the geolocation permission', () => {
  const server = new FixtureServer();
  server.route('/plain.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>plain</title>');
  });
  let driver: ExtensionDriver;

  beforeAll(async () => {
    await server.start();
    driver = await ExtensionDriver.start();
  });

  afterAll(async () => {
    await driver?.close();
    await server.stop();
  });

  it('emulates the position and says the page has no permission to read it (no Browser domain to grant it)', async () => {
    const tab = await driver.openTab(server.url('/plain.html'));
    const answer = await driver.ok('emulate', { tab_id: tab, geolocation: { latitude: 1, longitude: 2 } });
    expect(answer).toMatchObject({
      geolocation: { latitude: 1, longitude: 2, accuracy: 10 },
      geolocation_permission: 'not_granted',
    });
  });
});
