import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { defineStorageStateContract } from './contract/storage-state-contract';
import { ExtensionDriver } from './harness/drivers';

const downloads = mkdtempSync(join(tmpdir(), 'tabpilot-downloads-'));
afterAll(() => rmSync(downloads, { recursive: true, force: true }));

// The extension cannot read files from disk: a client that holds a file sends its content (as the side
// panel's import does); files the extension saved itself it reads back by name. So there is no way to
// hand it a file that is not JSON, and that check is Node's.
defineStorageStateContract(
  'the extension chrome.debugger transport',
  () => ExtensionDriver.start({ downloadsDir: downloads }),
  {
    fileOf: (name) => join(downloads, 'tabpilot', name),
    load: async (driver, file) =>
      driver.ok('load_storage_state', { state: JSON.parse(readFileSync(file, 'utf8')) as unknown }),
    loadInvalidJson: async () => undefined,
  },
);
