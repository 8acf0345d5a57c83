import type { BrowserHost } from '../../browser/host';
import { cdpPermissionGranter } from '../../browser/permissions/cdp-permission-granter';
import { createNodeArtifactFiles } from './artifact-files';
import { systemResolver } from './dns-resolver';
import { createNodeFileSaver } from './file-saver';
import { createFfmpegVideoPort } from './video/ffmpeg-video';

/**
 * The Node BrowserHost. tabpilot owns the browser it launched or was pointed at, so there are no tabs to
 * be given (no TabControl); files go to disk, recordings through ffmpeg; permissions through CDP's
 * Browser domain.
 */
export function createNodeHost(outputDir: () => string): BrowserHost {
  return {
    tabControl: undefined,
    files: createNodeFileSaver(outputDir),
    permissions: cdpPermissionGranter,
    artifacts: createNodeArtifactFiles(outputDir),
    video: createFfmpegVideoPort(outputDir),
    resolver: systemResolver,
  };
}
