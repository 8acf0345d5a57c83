import { errorMessageOf } from '../../shared/errors';
import { consoleSink, createLogger } from '../../shared/logger';
import { WebmEncoder } from '../../platform/extension/video/webm-encoder';
import { VIDEO_PORT_NAME, type FromEncoder, type ToEncoder } from '../../platform/extension/video/video-messages';

// The offscreen document that encodes screen recordings (WebCodecs exists here, not in the worker).
const log = createLogger(consoleSink, { level: 'info', namespace: 'tabpilot-video' });

// One recording per port. Frames are kept as the JPEG blobs the browser sent (Chrome's blob storage
// moves them to disk when they grow) and encoded when the recording ends: encoding VP8 as frames come
// took the CPU the session's commands needed (on 2 cores a click-and-state step was 2.7 times slower on
// a page at rest, 35 times on one repainting every frame). The finished file is handed back as a blob:
// URL the worker downloads, and released when the worker closes the port (the download is done). The
// document outlives its recordings: the worker keeps it for the next one (see encoder-document.ts).
chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== VIDEO_PORT_NAME) {
    return;
  }
  let encoder: WebmEncoder | undefined;
  const frames: Array<{ jpeg: Blob; timestamp: number; duration: number }> = [];
  let work: Promise<void> = Promise.resolve();
  let failure: string | undefined;
  let url: string | undefined;
  const post = (message: FromEncoder): void => port.postMessage(message);
  const queue = (step: () => Promise<void>): void => {
    work = work.then(step).catch((error: unknown) => {
      failure ??= errorMessageOf(error);
    });
  };

  port.onMessage.addListener((message: ToEncoder) => {
    switch (message.type) {
      case 'open':
        try {
          encoder = new WebmEncoder(message.width, message.height);
          post({ type: 'ready' });
        } catch (error) {
          post({ type: 'error', message: errorMessageOf(error) });
        }
        return;
      case 'frame':
        if (failure === undefined) {
          try {
            frames.push({ jpeg: jpegOf(message.data), timestamp: message.timestamp, duration: message.duration });
          } catch (error) {
            failure = errorMessageOf(error);
          }
        }
        return;
      case 'finish':
        queue(async () => {
          if (encoder === undefined || failure !== undefined) {
            post({ type: 'error', message: failure ?? 'no recording is open' });
            return;
          }
          for (const frame of frames.splice(0)) {
            await encoder.add(frame.jpeg, frame.timestamp, frame.duration);
          }
          const bytes = await encoder.finish();
          url = URL.createObjectURL(new Blob([bytes], { type: 'video/webm' }));
          post({ type: 'finished', url, bytes: bytes.byteLength });
        });
        queue(() => {
          if (failure !== undefined && url === undefined) {
            post({ type: 'error', message: failure });
          }
          return Promise.resolve();
        });
        return;
    }
  });
  port.onDisconnect.addListener(() => {
    // The document stays for the next recording: this one's frames and file go now.
    frames.length = 0;
    if (url !== undefined) {
      URL.revokeObjectURL(url);
    }
    if (encoder !== undefined && url === undefined) {
      encoder.cancel().catch((error: unknown) => {
        log.warn('cancelling the recording failed', { error: errorMessageOf(error) });
      });
    }
  });
});

/**
 * The frame's bytes, decoded as the frame comes: atob is synchronous and stays in this document,
 * where a fetch of a data: URL sends every frame through the loader.
 */
function jpegOf(base64: string): Blob {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    bytes[i] = text.charCodeAt(i);
  }
  return new Blob([bytes], { type: 'image/jpeg' });
}
