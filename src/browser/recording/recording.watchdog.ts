import { errorMessageOf } from '../../shared/errors';
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
import { failureOf, TabRecording } from './tab-recording';

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
    const recording = new TabRecording(ctx.session, ctx.log, (error) => {
      ctx.emit(BrowserErrorEvent, error);
    });
    const stopped = async (emit: typeof ctx.emit): Promise<void> => {
      const summary = await recording.finish();
      if (summary !== undefined) {
        emit(RecordingSavedEvent, summary);
      }
    };
    const stoppedOrReported = async (emit: typeof ctx.emit): Promise<void> => {
      await stopped(emit).catch((error: unknown) => {
        emit(BrowserErrorEvent, failureOf(ctx.session, error));
      });
    };
    // Turned off (or the session disposed): the file is written all the same.
    ctx.signal.addEventListener('abort', () => {
      stopped(ctx.emit).catch((error: unknown) => {
        ctx.log.warn('the recording could not be written', { error: errorMessageOf(error) });
      });
    });
    // Turned on while connected: recording starts at once.
    if (ctx.session.connectionState === 'connected') {
      recording.schedule();
    }
    return {
      BrowserConnectedEvent: () => recording.schedule(),
      // Frames come from the new connection's sessions (the poller asks for the focused one each time);
      // the same file goes on.
      BrowserReconnectedEvent: () => recording.schedule(),
      AgentFocusChangedEvent: () => recording.schedule(),
      BrowserStoppedEvent: (_event, handler) => stoppedOrReported(handler.emit),
      BrowserStopEvent: (_event, handler) => stoppedOrReported(handler.emit),
    };
  },
});
