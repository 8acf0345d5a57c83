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
    .default(5)
    .describe(
      'Frames a second taken of the focused tab (a screenshot each) and encoded, at most. Each costs the browser one copy of the page, so while commands run back to back frames come less often (about one a second on 2 cores), and at this rate again once they pause',
    ),
};
