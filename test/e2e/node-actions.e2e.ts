import { parseConfig } from '../../src/browser/config';
import { defineActionsContract } from './contract/actions-contract';
import { NodeDriver } from './harness/drivers';

defineActionsContract('the Node WebSocket transport', () => NodeDriver.start(), {
  configure: async (driver, config) => {
    const { session } = driver as NodeDriver;
    await session.applyConfig(parseConfig({ ...session.config, ...config }));
  },
  history: async (driver) => JSON.stringify((driver as NodeDriver).session.bus.history()),
});
