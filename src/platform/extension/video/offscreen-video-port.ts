import type { TimedFrame, VideoRecorderPort, VideoSink } from '../../../browser/host';
import { TabpilotError, errorMessageOf } from '../../../shared/errors';
import { downloadInto, type DownloadsApi } from '../file-saver';
import type { EncoderDocument, OffscreenDocumentApi } from './encoder-document';
import { VIDEO_OFFSCREEN_PATH, VIDEO_PORT_NAME, type FromEncoder, type ToEncoder } from './video-messages';

/** The slices of chrome.offscreen and chrome.runtime the port needs (fakeable). */
export interface OffscreenVideoApi extends OffscreenDocumentApi {
  connect(): chrome.runtime.Port;
}

export function realOffscreenVideoApi(): OffscreenVideoApi {
  return {
    createDocument: () =>
      chrome.offscreen.createDocument({
        url: VIDEO_OFFSCREEN_PATH,
        reasons: [chrome.offscreen.Reason.BLOBS],
        justification: 'Encode the screen recording of the controlled tab to a WebM file',
      }),
    closeDocument: () => chrome.offscreen.closeDocument(),
    hasDocument: () => chrome.offscreen.hasDocument(),
    connect: () => chrome.runtime.connect({ name: VIDEO_PORT_NAME }),
  };
}

const CONNECT_ATTEMPTS = 20;
const CONNECT_PAUSE_MS = 50;
const FINISH_TIMEOUT_MS = 60_000;

/**
 * The extension's recorder: frames go over a runtime port to an offscreen document (WebCodecs VP8 and
 * mediabunny's WebM muxer run there, off the worker's thread), and the finished file is downloaded from
 * its blob: URL into tabpilot/ under the downloads folder, like every other file the extension saves.
 * `document` is that offscreen document, kept open between recordings.
 */
export function createOffscreenVideoPort(
  api: OffscreenVideoApi,
  document: EncoderDocument,
  downloads: DownloadsApi,
): VideoRecorderPort {
  return {
    async open({ fileName, width, height }): Promise<VideoSink> {
      await document.acquire();
      const link = await openLink(api, width, height).catch((error: unknown) => {
        document.release();
        throw error;
      });
      // The document's encoder (and the file's blob: URL) goes with the port; the document stays.
      let ended = false;
      const end = (): void => {
        if (!ended) {
          ended = true;
          link.close();
          document.release();
        }
      };
      return {
        add: (frame: TimedFrame) => {
          link.post({ type: 'frame', data: frame.data, timestamp: frame.timestamp, duration: frame.duration });
          return Promise.resolve();
        },
        async finish() {
          try {
            const finished = await link.request({ type: 'finish' }, FINISH_TIMEOUT_MS);
            if (finished.type !== 'finished') {
              throw new TabpilotError(
                'INTERNAL',
                `Encoding the recording failed: ${finished.type === 'error' ? finished.message : finished.type}`,
              );
            }
            return await downloadInto(downloads, finished.url, fileName);
          } finally {
            end();
          }
        },
        discard() {
          end();
          return Promise.resolve();
        },
      };
    },
  };
}

interface Link {
  post(message: ToEncoder): void;
  request(message: ToEncoder, timeoutMs: number): Promise<FromEncoder>;
  close(): void;
}

/**
 * Connects to the offscreen document and opens an encoder there. A document still loading has no
 * listener yet (the port closes at once): the connection is tried again, a bounded number of times.
 */
async function openLink(api: OffscreenVideoApi, width: number, height: number): Promise<Link> {
  let lastError = 'no answer';
  for (let attempt = 0; attempt < CONNECT_ATTEMPTS; attempt++) {
    const port = api.connect();
    const link = linkOf(port);
    const answer = await link.request({ type: 'open', width, height }, 5_000).catch((error: unknown) => {
      lastError = errorMessageOf(error);
      return undefined;
    });
    if (answer?.type === 'ready') {
      return link;
    }
    if (answer?.type === 'error') {
      link.close();
      throw new TabpilotError('UNSUPPORTED', `The video encoder could not start: ${answer.message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, CONNECT_PAUSE_MS));
  }
  throw new TabpilotError('INTERNAL', `The video encoder did not answer (${lastError})`);
}

function linkOf(port: chrome.runtime.Port): Link {
  const waiting = new Set<{ resolve: (message: FromEncoder) => void; reject: (error: Error) => void }>();
  let gone: string | undefined;
  port.onMessage.addListener((message: FromEncoder) => {
    for (const waiter of waiting) {
      waiter.resolve(message);
    }
    waiting.clear();
  });
  port.onDisconnect.addListener(() => {
    gone = chrome.runtime.lastError?.message ?? 'the encoder closed its port';
    for (const waiter of waiting) {
      waiter.reject(new Error(gone));
    }
    waiting.clear();
  });
  return {
    post(message) {
      if (gone === undefined) {
        port.postMessage(message);
      }
    },
    request(message, timeoutMs) {
      if (gone !== undefined) {
        return Promise.reject(new Error(gone));
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(waiter);
          reject(new TabpilotError('TIMEOUT', `The video encoder did not answer ${message.type} in time`));
        }, timeoutMs);
        const waiter = {
          resolve: (answer: FromEncoder) => {
            clearTimeout(timer);
            resolve(answer);
          },
          reject: (error: Error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        waiting.add(waiter);
        port.postMessage(message);
      });
    },
    close() {
      gone ??= 'closed';
      port.disconnect();
    },
  };
}
