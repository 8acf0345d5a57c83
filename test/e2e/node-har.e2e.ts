import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { parseConfig } from '../../src/agent/tabpilot-config';
import { defineHarContract } from './contract/har-contract';
import { NodeDriver } from './harness/drivers';

const output = mkdtempSync(join(tmpdir(), 'tabpilot-har-'));
afterAll(() => rmSync(output, { recursive: true, force: true }));

defineHarContract('the Node WebSocket transport', () => NodeDriver.start({ config: { output_dir: output } }), {
  configure: async (driver, fields) => {
    const { session } = driver as NodeDriver;
    await session.applyConfig(parseConfig({ ...session.config, ...fields }));
  },
  fileOf: (name) => join(output, name),
  history: async (driver) => JSON.stringify((driver as NodeDriver).session.bus.history()),
  releaseAndAttach: async (driver, tabId) => {
    await driver.ok('release');
    await driver.ok('attach', { tab_id: tabId });
    return tabId;
  },
});
