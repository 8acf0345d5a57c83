import { defineRequestPolicyContract } from './contract/request-policy-contract';
import { ExtensionDriver } from './harness/drivers';
import { SECURITY_BROWSER_ARGS, saveSettingsInWorker } from './harness/security-rig';

defineRequestPolicyContract(
  'the extension chrome.debugger transport',
  () => ExtensionDriver.start({ args: SECURITY_BROWSER_ARGS }),
  {
    // The person's road: the settings the panel saves (validated, stored, applied to every tab).
    applyConfig: (driver, fields) => saveSettingsInWorker(driver as ExtensionDriver, fields),
    // The extension has no DNS API: block_ip_addresses judges the URL's host as written there.
    resolvesHostNames: false,
    // Chrome refuses a top-level data: navigation over chrome.debugger (net::ERR_ABORTED): only framed ones.
    navigatesToData: false,
    // declarativeNetRequest session rules scoped to the controlled tabs (websocket-guard.ts).
    holdsWebSockets: true,
  },
);
