import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { defineRecordingContract, type SavedRecording } from './contract/recording-contract';
import { NodeDriver, type Driver } from './harness/drivers';

const outputDir = realpathSync(mkdtempSync(join(tmpdir(), 'tabpilot-video-e2e-')));
const history = (driver: Driver, type: string): unknown[] =>
  (driver as NodeDriver).session.bus
    .history()
    .filter((view) => view.type === type)
    .map((view) => view.payload);

defineRecordingContract('the Node WebSocket transport', () => NodeDriver.start({ config: { output_dir: outputDir } }), {
  savedRecordings: async (driver) => history(driver, 'RecordingSavedEvent') as SavedRecording[],
  errors: async (driver) => history(driver, 'BrowserErrorEvent'),
  expectLocation: (path) => expect(path.startsWith(join(outputDir, 'videos') + '/')).toBe(true),
  openAndFocus: (driver, url) => driver.openTab(url),
  idleMs: (driver) => {
    const { targets } = (driver as NodeDriver).session;
    return Promise.resolve(targets.requireSession(targets.focusedTargetId ?? '').connection.idleMs);
  },
});
