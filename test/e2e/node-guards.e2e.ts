import { defineGuardsContract } from './contract/guards-contract';
import { NodeDriver } from './harness/drivers';

defineGuardsContract('the Node WebSocket transport', () => NodeDriver.start(), {
  useSecrets: (driver, sensitiveData) => driver.setConfig({ sensitive_data: sensitiveData }),
  timeline: () => Promise.resolve(null),
});
