import { defineRequestPolicyContract } from './contract/request-policy-contract';
import { NodeDriver } from './harness/drivers';
import { SECURITY_BROWSER_ARGS } from './harness/security-rig';

defineRequestPolicyContract('the Node WebSocket transport', () => NodeDriver.start({ args: SECURITY_BROWSER_ARGS }), {
  applyConfig: (driver, fields) => driver.setConfig(fields),
  resolvesHostNames: true,
  navigatesToData: true,
  // The launched browser's guard extension holds them (browser/security/guard-worker.ts).
  holdsWebSockets: true,
});
