import { defineGuardsContract } from './contract/guards-contract';
import { challengeFlags } from './harness/challenge-server';
import { NodeDriver } from './harness/drivers';

defineGuardsContract('the Node WebSocket transport', () => NodeDriver.start({ args: challengeFlags() }), {
  useSecrets: (driver, sensitiveData) => driver.setConfig({ sensitive_data: sensitiveData }),
  timeline: () => Promise.resolve(null),
});
