import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { parseConfig } from '../../src/agent/tabpilot-config';
import { defineDownloadsContract } from './contract/downloads-contract';
import { NodeDriver } from './harness/drivers';

const output = mkdtempSync(join(tmpdir(), 'tabpilot-node-downloads-'));
afterAll(() => rmSync(output, { recursive: true, force: true }));

defineDownloadsContract(
  'the Node WebSocket transport',
  () => NodeDriver.start({ config: { output_dir: output, downloads_path: 'files' } }),
  {
    folder: join(output, 'files'),
    configure: async (driver, fields) => {
      const { session } = driver as NodeDriver;
      await session.applyConfig(parseConfig({ ...session.config, ...fields }));
    },
  },
);
