import type { CdpSession } from '../../cdp/session';
import { TabpilotError, errorMessageOf } from '../../shared/errors';
import { bestEffort } from '../../shared/logger';
import { defineWatchdog } from '../define-watchdog';
import {
  BrowserConnectedEvent,
  BrowserErrorEvent,
  BrowserReconnectedEvent,
  BrowserStopEvent,
  BrowserStoppedEvent,
} from '../events/lifecycle.events';
import { RecordingSavedEvent } from '../events/recording.events';
import { AgentFocusChangedEvent } from '../events/tabs.events';
import { ScreenRecorder, type RecordingSummary } from '../recording/screen-recorder';
import { videoSize } from '../recording/video-size';

/** JPEG is several times cheaper for the browser to encode than PNG, and the video is lossy anyway. */
const FRAME_QUALITY = 80;
const STOP_CAST_TIMEOUT_MS = 2_000;

/** A stuck page answers no screenshot; the recording goes on without its first frame. */
const FIRST_FRAME_TIMEOUT_MS = 5_000;

const nowSeconds = (): number => Date.now() / 1000;

/**
 * RecordingWatchdog: while record_video_dir is set, the focused controlled tab is recorded to a WebM
 * file through Page.startScreencast, following focus from tab to tab. Every frame is acknowledged at
 * once (the browser sends the next only then) and carries the time the browser drew it, so an idle
 * stretch stays as long in the video as it was. The file is written on stop, on disconnect, and when
 * recording is turned off; browser-use stops the screencast after its connection is already gone and
 * never writes the file when recording is switched off mid-session.
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
    /** The session the screencast runs on; frames from any other are acknowledged and dropped. */
    let cast: CdpSession | undefined;

    // Every frame is acknowledged at once: the browser sends the next only then, and an ack held back
    // (to pace the screencast) holds back the page's rendering too, and with it rAF-aligned input
    // (measured: commands slowed more the longer the acks were held).
    const unsubscribe = targets.on('Page.screencastFrame', (params, source) => {
      void source.session.call('Page.screencastFrameAck', { sessionId: params.sessionId }).catch((error: unknown) => {
        ctx.log.debug('screencast frame ack failed', { error: errorMessageOf(error) });
      });
      if (recorder !== undefined && source.session === cast) {
        recorder.add(params.data, params.metadata.timestamp ?? nowSeconds());
      }
    });

    const stopCast = async (): Promise<void> => {
      const session = cast;
      cast = undefined;
      if (session !== undefined && !session.detached) {
        await bestEffort(
          session.call('Page.stopScreencast', undefined, { timeoutMs: STOP_CAST_TIMEOUT_MS }),
          ctx.log,
          'stop the screencast',
        );
      }
    };

    /**
     * Points the screencast at the focused tab. A tab that paints nothing sends no frame until it does,
     * so a screenshot taken as the screencast starts is the tab's first frame; the screencast's own
     * frames follow it (or replace it when they come within a frame interval).
     */
    const follow = async (active: ScreenRecorder): Promise<void> => {
      const targetId = targets.focusedTargetId;
      const session = targetId === undefined ? undefined : targets.sessionFor(targetId);
      if (session === cast && session !== undefined && !session.detached) {
        return;
      }
      await stopCast();
      if (session === undefined || recorder !== active) {
        return;
      }
      cast = session;
      const drawnAt = nowSeconds();
      const shot = await session.call(
        'Page.captureScreenshot',
        { format: 'jpeg', quality: FRAME_QUALITY },
        { timeoutMs: FIRST_FRAME_TIMEOUT_MS },
      );
      if (cast !== session || recorder !== active) {
        return;
      }
      active.add(shot.data, drawnAt);
      await session.send('Page.startScreencast', {
        format: 'jpeg',
        quality: FRAME_QUALITY,
        maxWidth: active.width,
        maxHeight: active.height,
        everyNthFrame: 1,
      });
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

    /** Starts recording when there is a focused tab (once), and keeps the screencast on it. */
    const ensure = async (): Promise<void> => {
      if (recorder === undefined) {
        await begin();
      }
      if (recorder !== undefined) {
        await follow(recorder);
      }
    };

    // Starting and following run behind the bus events that ask for them: a navigation or a tab switch
    // does not wait for a screenshot and a screencast to start. They run one at a time, in order.
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
      await work;
      const active = recorder;
      recorder = undefined;
      await stopCast();
      if (active === undefined) {
        return undefined;
      }
      const summary = await active.finish(nowSeconds());
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
      unsubscribe();
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
        // The old screencast died with its connection; the same file goes on in the new one.
        cast = undefined;
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
