import { defineSecurityCorpus } from './contract/security-corpus';
import { ExtensionDriver } from './harness/drivers';
import { SECURITY_BROWSER_ARGS, saveSettingsInWorker } from './harness/security-rig';

defineSecurityCorpus(
  'the extension chrome.debugger transport',
  () => ExtensionDriver.start({ args: SECURITY_BROWSER_ARGS }),
  {
    applyConfig: (driver, fields) => saveSettingsInWorker(driver as ExtensionDriver, fields),
  },
);
