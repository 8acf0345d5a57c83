import type { BrowserHost } from '../../browser/host';
import { createNodeArtifactFiles } from './artifact-files';
import { createNodeFileSaver } from './file-saver';

/**
 * The Node BrowserHost. tabpilot owns the browser it launched or was pointed at, so there are no tabs to
 * be given (no TabControl); files go to disk.
 */
export function createNodeHost(outputDir: () => string): BrowserHost {
  return {
    tabControl: undefined,
    files: createNodeFileSaver(outputDir),
    artifacts: createNodeArtifactFiles(outputDir),
  };
}
