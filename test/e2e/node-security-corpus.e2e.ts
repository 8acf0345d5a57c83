import { defineSecurityCorpus } from './contract/security-corpus';
import { NodeDriver } from './harness/drivers';
import { SECURITY_BROWSER_ARGS } from './harness/security-rig';

defineSecurityCorpus('the Node WebSocket transport', () => NodeDriver.start({ args: SECURITY_BROWSER_ARGS }), {
  applyConfig: (driver, fields) => driver.setConfig(fields),
});
