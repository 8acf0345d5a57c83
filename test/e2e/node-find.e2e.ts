import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineFindContract } from './contract/find-contract';
import { defineOutcomeContract } from './contract/outcome-contract';
import { NodeDriver } from './harness/drivers';

defineFindContract('the Node WebSocket transport', () => NodeDriver.start());
// Its download goes to a folder of the test's own, not the clone's ./downloads.
defineOutcomeContract('the Node WebSocket transport', () =>
  NodeDriver.start({ config: { output_dir: mkdtempSync(join(tmpdir(), 'tabpilot-outcome-')) } }),
);
