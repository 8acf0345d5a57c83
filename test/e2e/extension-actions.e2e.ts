import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { defineActionsContract } from './contract/actions-contract';
import { defineFlowsContract } from './contract/flows-contract';
import { ExtensionDriver, type Driver } from './harness/drivers';

const hooks = {
  configure: async (driver: Driver, config: Record<string, unknown>) => {
    const saved = await (driver as ExtensionDriver).inWorker<{ ok: boolean; error?: { message: string } }>(
      `globalThis.tabpilot.settings.save(${JSON.stringify(config)})`,
    );
    if (!saved.ok) {
      throw new Error(`the extension refused the config: ${saved.error?.message ?? ''}`);
    }
  },
  history: async (driver: Driver) =>
    (driver as ExtensionDriver).inWorker<string>('JSON.stringify(globalThis.tabpilot.session.bus.history())'),
};

defineActionsContract('the extension chrome.debugger transport', () => ExtensionDriver.start(), hooks);
// Flows replay the acting actions, so they run beside them, with the same hooks.
// The person's downloads folder: the extension saves the replay's picture into tabpilot/ under it.
const downloads = mkdtempSync(join(tmpdir(), 'tabpilot-flows-downloads-'));
afterAll(() => rmSync(downloads, { recursive: true, force: true }));
defineFlowsContract(
  'the extension chrome.debugger transport',
  () => ExtensionDriver.start({ downloadsDir: downloads }),
  { ...hooks, fileOf: (name) => join(downloads, 'tabpilot', name) },
);
