import type { BrowserHost } from '../../browser/host';
import { createNodeFileSaver } from './file-saver';
import { createFfmpegVideoPort } from './video/ffmpeg-video';

/**
 * The Node BrowserHost. tabpilot owns the browser it launched or was pointed at, so there are no tabs to
 * be given (no TabControl); files go to disk, recordings through ffmpeg.
 */
export function createNodeHost(outputDir: () => string): BrowserHost {
  return { tabControl: undefined, files: createNodeFileSaver(outputDir), video: createFfmpegVideoPort(outputDir) };
}
