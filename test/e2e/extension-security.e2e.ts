import { defineSecurityContract } from './contract/security-contract';
import { ExtensionDriver } from './harness/drivers';
import { SECURITY_BROWSER_ARGS, saveSettingsInWorker } from './harness/security-rig';

defineSecurityContract(
  'the extension chrome.debugger transport',
  () => ExtensionDriver.start({ args: SECURITY_BROWSER_ARGS }),
  // The person's road: the settings the panel saves (validated, stored, applied to every tab).
  { applyConfig: (driver, fields) => saveSettingsInWorker(driver as ExtensionDriver, fields) },
);
