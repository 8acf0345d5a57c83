import { Actor } from '../actor/index';
import { defineSecurityContract } from './contract/security-contract';
import { NodeDriver } from './harness/drivers';
import { SECURITY_BROWSER_ARGS } from './harness/security-rig';

defineSecurityContract(
  'the Node WebSocket transport',
  () => NodeDriver.start({ args: SECURITY_BROWSER_ARGS, config: { permissions: ['geolocation'] } }),
  {
    // Node's person-side road is the config file; in process, the same applyConfig it feeds.
    applyConfig: (driver, fields) => driver.setConfig(fields),
    grantedAtStart: ['geolocation'],
    actorGoto: (driver, tabId, url) => new Actor((driver as NodeDriver).session).page(tabId).goto(url),
  },
);
