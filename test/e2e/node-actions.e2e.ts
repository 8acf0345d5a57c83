import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { parseConfig } from '../../src/agent/tabpilot-config';
import { defineActionsContract } from './contract/actions-contract';
import { defineFlowsContract } from './contract/flows-contract';
import { NodeDriver, type Driver } from './harness/drivers';

const hooks = {
  configure: async (driver: Driver, config: Record<string, unknown>) => {
    const { session } = driver as NodeDriver;
    await session.applyConfig(parseConfig({ ...session.config, ...config }));
  },
  history: async (driver: Driver) => JSON.stringify((driver as NodeDriver).session.bus.history()),
};

defineActionsContract('the Node WebSocket transport', () => NodeDriver.start(), hooks);
// Flows replay the acting actions, so they run beside them, with the same hooks.
const output = mkdtempSync(join(tmpdir(), 'tabpilot-flows-'));
afterAll(() => rmSync(output, { recursive: true, force: true }));
defineFlowsContract('the Node WebSocket transport', () => NodeDriver.start({ config: { output_dir: output } }), {
  ...hooks,
  fileOf: (name) => join(output, name),
});
