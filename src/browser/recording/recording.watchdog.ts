import type { CdpSession } from '../../cdp/session';
import { TabpilotError, errorMessageOf } from '../../shared/errors';
import { defineWatchdog } from '../define-watchdog';
import {
  BrowserConnectedEvent,
  BrowserErrorEvent,
  BrowserReconnectedEvent,
  BrowserStopEvent,
  BrowserStoppedEvent,
} from '../../protocol/events/lifecycle.events';
import { RecordingSavedEvent } from '../../protocol/events/recording.events';
import { AgentFocusChangedEvent } from '../../protocol/events/tabs.events';
import { FramePoller, type ScreenshotSession } from './frame-poller';
import { ScreenRecorder, type RecordingSummary } from './screen-recorder';
import { videoSize } from './video-size';

/** JPEG is several times cheaper for the browser to encode than PNG, and the video is lossy anyway. */
const FRAME_QUALITY = 80;
/** A stuck page answers no screenshot; that frame is skipped and the last one stays on screen. */
const FRAME_TIMEOUT_MS = 5_000;

const nowSeconds = (): number => Date.now() / 1000;

/**
 * RecordingWatchdog: while record_video_dir is set, the focused controlled tab is recorded to a WebM
 * file: a screenshot of it record_video_framerate times a second, following focus from tab to tab (the
 * new tab's first frame is taken at once). Each frame keeps the time it was taken, and the last stays
 * until the recording ends, so an idle stretch stays as long in the video as it was. While commands
 * run back to back, frames come less often (see FramePoller), so recording does not slow them. The
 * file is written on stop, on disconnect, and when recording is turned off; browser-use stops its
 * screencast after its connection is already gone and never writes the file when recording is switched
 * off mid-session.
 */
export const recordingWatchdog = defineWatchdog({
  name: 'recording',
  listensTo: [
    BrowserConnectedEvent,
    BrowserReconnectedEvent,
    AgentFocusChangedEvent,
    BrowserStopEvent,
    BrowserStoppedEvent,
  ],
  emits: [RecordingSavedEvent, BrowserErrorEvent],
  enabled: (config) => config.record_video_dir !== null,
  setup: (ctx) => {
    const { targets } = ctx.session;
    let recorder: ScreenRecorder | undefined;
    let poller: FramePoller | undefined;
    /** The session the last frame came from: a focus change to another one takes a frame at once. */
    let filmed: ScreenshotSession | undefined;

    const focusedSession = (): CdpSession | undefined => {
      const targetId = targets.focusedTargetId;
      return targetId === undefined ? undefined : targets.sessionFor(targetId);
    };

    // A recording turned off before its first screenshot came back waits for it: a video needs a frame.
    const stopPolling = async (): Promise<void> => {
      const active = poller;
      poller = undefined;
      await active?.stop({ abandon: recorder?.empty !== true });
    };

    /** Keeps the frames coming from the focused tab: a new tab is filmed at once, not at the next tick. */
    const follow = (active: ScreenRecorder): void => {
      if (poller === undefined) {
        poller = new FramePoller({
          framesPerSecond: ctx.session.config.record_video_framerate,
          quality: FRAME_QUALITY,
          timeoutMs: FRAME_TIMEOUT_MS,
          current: focusedSession,
          idleMs: () => focusedSession()?.connection.idleMs ?? Number.POSITIVE_INFINITY,
          onFrame: (data, takenAt, from) => {
            if (recorder === active) {
              filmed = from;
              active.add(data, takenAt);
            }
          },
          onMissed: (reason) => ctx.log.debug('a recording frame was missed', { reason }),
          now: nowSeconds,
        });
        poller.start();
        return;
      }
      const focused = focusedSession();
      if (focused !== undefined && focused !== filmed) {
        poller.wake();
      }
    };

    const begin = async (): Promise<void> => {
      const video = ctx.session.host.video;
      const dir = ctx.session.config.record_video_dir;
      if (video === undefined) {
        throw new TabpilotError('UNSUPPORTED', 'Recording video is not available here');
      }
      const targetId = targets.focusedTargetId;
      if (dir === null || targetId === undefined || ctx.session.connectionState !== 'connected') {
        return;
      }
      const size = await videoSize(ctx.session.config.record_video_size, targets.sessionFor(targetId));
      const origin = nowSeconds();
      const sink = await video.open({ dir, fileName: videoFileName(new Date(origin * 1000)), ...size });
      recorder = new ScreenRecorder(sink, size, origin, ctx.session.config.record_video_framerate);
      ctx.log.info('recording started', { ...size });
    };

    /** Starts recording when there is a focused tab (once), and keeps the frames coming from it. */
    const ensure = async (): Promise<void> => {
      if (recorder === undefined) {
        await begin();
      }
      if (recorder !== undefined) {
        follow(recorder);
      }
    };

    // Starting and following run behind the bus events that ask for them: a navigation or a tab switch
    // does not wait for the recording to start. They run one at a time, in order.
    let work: Promise<void> = Promise.resolve();
    const schedule = (): void => {
      work = work.then(ensure).catch((error: unknown) => {
        ctx.emit(BrowserErrorEvent, {
          error_type: 'RecordingFailed',
          message: errorMessageOf(error),
          details: { record_video_dir: ctx.session.config.record_video_dir },
        });
      });
    };

    const finish = async (): Promise<RecordingSummary | undefined> => {
      // The video ends when recording was asked to end, not when the last frame in flight settled.
      const endAt = nowSeconds();
      recorder?.endBy(endAt);
      await work;
      recorder?.endBy(endAt);
      await stopPolling();
      const active = recorder;
      recorder = undefined;
      if (active === undefined) {
        return undefined;
      }
      const summary = await active.finish(endAt);
      ctx.log.info('recording saved', { ...summary });
      return summary;
    };

    const onStopped = async (emit: typeof ctx.emit): Promise<void> => {
      const summary = await finish();
      if (summary !== undefined) {
        emit(RecordingSavedEvent, summary);
      }
    };

    // Turned off (or the session disposed): the file is written all the same.
    ctx.signal.addEventListener('abort', () => {
      onStopped(ctx.emit).catch((error: unknown) => {
        ctx.log.warn('the recording could not be written', { error: errorMessageOf(error) });
      });
    });
    // Turned on while connected: recording starts at once.
    if (ctx.session.connectionState === 'connected') {
      schedule();
    }

    const reportFailure = (emit: typeof ctx.emit, error: unknown): void => {
      emit(BrowserErrorEvent, {
        error_type: 'RecordingFailed',
        message: errorMessageOf(error),
        details: { record_video_dir: ctx.session.config.record_video_dir },
      });
    };

    return {
      BrowserConnectedEvent: () => {
        schedule();
      },
      BrowserReconnectedEvent: () => {
        // Frames come from the new connection's sessions (the poller asks for the focused one each
        // time); the same file goes on.
        schedule();
      },
      AgentFocusChangedEvent: () => {
        schedule();
      },
      BrowserStoppedEvent: async (_event, handler) => {
        await onStopped(handler.emit).catch((error: unknown) => reportFailure(handler.emit, error));
      },
      BrowserStopEvent: async (_event, handler) => {
        await onStopped(handler.emit).catch((error: unknown) => reportFailure(handler.emit, error));
      },
    };
  },
});

/** tabpilot-2026-12-01T13-45-00-123Z.webm: sortable, and legal on every file system. */
export function videoFileName(at: Date): string {
  return `tabpilot-${at.toISOString().replace(/:/g, '-').replace('.', '-')}.webm`;
}
