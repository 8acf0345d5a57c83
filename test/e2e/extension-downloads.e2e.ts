import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { defineDownloadsContract } from './contract/downloads-contract';
import { ExtensionDriver } from './harness/drivers';

// The person's downloads folder; tabpilot's downloads go into tabpilot/ under it.
const downloads = mkdtempSync(join(tmpdir(), 'tabpilot-downloads-'));
afterAll(() => rmSync(downloads, { recursive: true, force: true }));

defineDownloadsContract(
  'the extension chrome.debugger transport',
  () => ExtensionDriver.start({ downloadsDir: downloads }),
  {
    folder: join(downloads, 'tabpilot'),
    configure: async (driver, fields) => {
      const extension = driver as ExtensionDriver;
      const saved = await extension.inWorker<{ ok: boolean; error?: { message: string } }>(
        `globalThis.tabpilot.settings.save({ ...globalThis.tabpilot.session.config, ...${JSON.stringify(fields)} })`,
      );
      if (!saved.ok) {
        throw new Error(`the extension refused the config: ${saved.error?.message ?? ''}`);
      }
    },
  },
);
