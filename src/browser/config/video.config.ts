import { z } from 'zod';

const VideoSize = z
  .strictObject({
    width: z.number().int().min(16).max(3840).describe('Frame width in px (rounded down to an even number)'),
    height: z.number().int().min(16).max(2160).describe('Frame height in px (rounded down to an even number)'),
  })
  .describe('The size of the video frames; null: the focused tab’s viewport when recording starts');

/** Screen recording of the focused controlled tab to WebM (the RecordingWatchdog's fields). */
export const VIDEO_CONFIG_SHAPE = {
  record_video_dir: z
    .string()
    .min(1)
    .nullable()
    .default(null)
    .describe(
      'Record the focused controlled tab to a WebM file per session. Node: the folder (relative to output_dir); the extension: any value turns recording on and files go to tabpilot/ under the downloads folder. null: no recording',
    ),
  record_video_size: VideoSize.nullable().default(null),
  record_video_framerate: z
    .number()
    .int()
    .min(1)
    .max(30)
    .default(3)
    .describe(
      'At most this many frames a second are captured (a page at rest sends none, and its video still runs at wall-clock time). Each frame costs the browser a JPEG encode: on 2 shared cores 3 kept commands within 10% of their time without recording; more gives smoother video at a cost (npm run bench -- --only video)',
    ),
};
