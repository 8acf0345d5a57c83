import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { defineRecordingContract, type SavedRecording } from './contract/recording-contract';
import { ExtensionDriver, type Driver } from './harness/drivers';

// The test browser's downloads folder (Browser.setDownloadBehavior). The extension asks chrome.downloads
// for tabpilot/<name>.webm; with the folder set over CDP, Chromium names the file by its download guid
// instead (<guid>.webm at the top of the folder), so the test checks the folder, not the name.
const downloads = realpathSync(mkdtempSync(join(tmpdir(), 'tabpilot-video-downloads-')));
const history = (driver: Driver, type: string): Promise<unknown[]> =>
  (driver as ExtensionDriver).inWorker<unknown[]>(
    `globalThis.tabpilot.session.bus.history().filter((view) => view.type === ${JSON.stringify(type)}).map((view) => view.payload)`,
  );

defineRecordingContract(
  'the extension (chrome.debugger, WebCodecs in an offscreen document)',
  async () => {
    const driver = await ExtensionDriver.start();
    await driver.client.root.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
    return driver;
  },
  {
    savedRecordings: async (driver) => (await history(driver, 'RecordingSavedEvent')) as SavedRecording[],
    errors: (driver) => history(driver, 'BrowserErrorEvent'),
    expectLocation: (path) => expect(path.startsWith(`${downloads}/`) && path.endsWith('.webm'), path).toBe(true),
    idleMs: (driver) =>
      (driver as ExtensionDriver).inWorker<number>(
        `(() => { const { targets } = globalThis.tabpilot.session; return targets.requireSession(targets.focusedTargetId).connection.idleMs; })()`,
      ),
    openAndFocus: async (driver, url) => {
      const tabId = await driver.openTab(url);
      await driver.ok('switch', { tab_id: tabId });
      return tabId;
    },
  },
);
