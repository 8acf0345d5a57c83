/** The runtime port between the worker and the offscreen document that encodes recordings. */
export const VIDEO_PORT_NAME = 'tabpilot-video';

/** The offscreen page (built by vite from src/entries/extension/video-offscreen.html). */
export const VIDEO_OFFSCREEN_PATH = 'src/entries/extension/video-offscreen.html';

export type ToEncoder =
  | { type: 'open'; width: number; height: number }
  | { type: 'frame'; data: string; timestamp: number; duration: number }
  | { type: 'finish' };

export type FromEncoder =
  { type: 'ready' } | { type: 'finished'; url: string; bytes: number } | { type: 'error'; message: string };
