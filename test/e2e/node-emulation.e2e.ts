import { defineEmulationContract } from './contract/emulation-contract';
import { NodeDriver } from './harness/drivers';

// Where tabpilot launched the browser, release lets go of all of it (which keeps running) and attach
// reconnects to the same tab.
defineEmulationContract('the Node WebSocket transport', () => NodeDriver.start(), {
  geolocationPermission: 'granted_to_origin',
  releaseAndAttach: async (driver, tabId) => {
    await driver.ok('release');
    await driver.ok('attach', { tab_id: tabId });
    return tabId;
  },
});
