import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { defineHarContract } from './contract/har-contract';
import { ExtensionDriver } from './harness/drivers';

// The person's downloads folder: the extension saves its files into tabpilot/ under it.
const downloads = mkdtempSync(join(tmpdir(), 'tabpilot-downloads-'));
afterAll(() => rmSync(downloads, { recursive: true, force: true }));

defineHarContract('the extension chrome.debugger transport', () => ExtensionDriver.start({ downloadsDir: downloads }), {
  configure: async (driver, fields) => {
    const extension = driver as ExtensionDriver;
    const config = await extension.inWorker<Record<string, unknown>>('globalThis.tabpilot.session.config');
    const saved = await extension.inWorker<{ ok: boolean; error?: { message: string } }>(
      `globalThis.tabpilot.settings.save(${JSON.stringify({ ...config, ...fields })})`,
    );
    if (!saved.ok) {
      throw new Error(`the extension refused the config: ${saved.error?.message ?? ''}`);
    }
  },
  fileOf: (name) => join(downloads, 'tabpilot', name),
  history: async (driver) =>
    (driver as ExtensionDriver).inWorker<string>('JSON.stringify(globalThis.tabpilot.session.bus.history())'),
  releaseAndAttach: async (driver, tabId) => {
    await driver.ok('release', { tab_id: tabId });
    await driver.ok('attach', { tab_id: tabId });
    return tabId;
  },
});
