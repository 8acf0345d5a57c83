import { defineEmulationContract } from './contract/emulation-contract';
import { ExtensionDriver } from './harness/drivers';

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
