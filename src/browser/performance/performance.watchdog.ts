import { PerformanceStartEvent, PerformanceStopEvent } from '../../protocol/actions/performance.actions';
import { BrowserStoppedEvent } from '../../protocol/events/lifecycle.events';
import { RefreshEvent } from '../../protocol/events/navigation.events';
import { ReleaseTabEvent, TabClosedEvent, TabLeaseEndedEvent } from '../../protocol/events/tabs.events';
import { TabpilotError } from '../../shared/errors';
import { bestEffort } from '../../shared/logger';
import { secretsOf } from '../../shared/redact';
import { defineWatchdog } from '../define-watchdog';
import { requireArtifacts } from '../host';
import { traceEventOf } from './trace-event';
import { traceFileBytes, traceFileName } from './trace-file';
import { TraceRecording } from './trace-recording';
import { withTracingStarted } from './trace-start-event';
import { vitalsOf } from './trace-vitals';

/** The trace running, or being started, in one tab. */
interface RunningTrace {
  targetId: string;
  path: string;
  file: string;
  /** Undefined while Tracing.start is on its way. */
  recording: TraceRecording | undefined;
}

/**
 * PerformanceWatchdog: `performance_start` and `performance_stop`, a trace of the client's own tab through
 * its CDP session, and the Core Web Vitals read from the events (performance/trace-vitals.ts). The browser
 * records one trace at a time, so tabpilot holds one: a second start is FORBIDDEN, naming the action that
 * ends the first. A trace still running when its client lets the tab go (release, the lease's end) or the
 * tab closes is ended and thrown away, so no client leaves the browser tracing.
 */
export const performanceWatchdog = defineWatchdog({
  name: 'performance',
  listensTo: [
    PerformanceStartEvent,
    PerformanceStopEvent,
    ReleaseTabEvent,
    TabLeaseEndedEvent,
    TabClosedEvent,
    BrowserStoppedEvent,
  ],
  emits: [RefreshEvent],
  setup: (ctx) => {
    let running: RunningTrace | undefined;

    const discard = async (targetIds: readonly string[]): Promise<void> => {
      const trace = running;
      if (trace === undefined || !targetIds.includes(trace.targetId)) {
        return;
      }
      running = undefined;
      if (trace.recording !== undefined && !trace.recording.session.detached) {
        await bestEffort(trace.recording.discard(), ctx.log, 'ending the trace of a released tab');
      }
      ctx.log.info('performance trace discarded', { target_id: trace.targetId });
    };

    return {
      PerformanceStartEvent: async (event, hctx) => {
        const { target_id: targetId, reload, file_name } = event.payload;
        const session = ctx.session.targets.requireSession(targetId);
        if (running !== undefined) {
          throw new TabpilotError(
            'FORBIDDEN',
            running.targetId === targetId
              ? 'a performance trace runs in this tab already: performance_stop ends it before another starts'
              : 'a performance trace runs in another tab (the browser records one at a time): try again once it is stopped',
          );
        }
        const path = traceFileName(file_name);
        const trace: RunningTrace = { targetId, path, file: '', recording: undefined };
        running = trace;
        try {
          trace.file = await requireArtifacts(ctx.session.host).check(path, 'file_name');
          trace.recording = await TraceRecording.start(session);
          if (reload) {
            await hctx.emit(RefreshEvent, { target_id: targetId }).result();
          }
        } catch (error) {
          await discard([targetId]);
          throw error;
        }
        return { file: trace.file, reloaded: reload };
      },

      PerformanceStopEvent: async (event) => {
        const trace = running;
        if (trace?.targetId !== event.payload.target_id || trace.recording === undefined) {
          throw new TabpilotError(
            'ELEMENT_NOT_FOUND',
            'no performance trace runs in this tab: performance_start begins one',
          );
        }
        running = undefined;
        const recording = trace.recording;
        const raw = withTracingStarted(await recording.stop(), {
          frameId: trace.targetId,
          url: ctx.session.targets.target(trace.targetId)?.url ?? '',
        });
        const durationMs = Date.now() - recording.startedAt;
        const events = raw.map(traceEventOf).filter((parsed) => parsed !== undefined);
        const bytes = traceFileBytes(raw, recording.startedAt, secretsOf(ctx.session.config.sensitive_data));
        const file = await requireArtifacts(ctx.session.host).writeFile(trace.path, bytes, {
          field: 'file_name',
          atomic: true,
          mimeType: 'application/json',
        });
        ctx.log.info('performance trace written', { location: file, bytes: bytes.length, events: raw.length });
        return { file, bytes: bytes.length, duration_ms: durationMs, ...vitalsOf(events) };
      },

      // Runs before the tabs watchdog lets the tab go, while its session still answers.
      ReleaseTabEvent: async (event) => {
        const only = event.payload.target_id;
        if (only !== undefined && ctx.session.host.tabControl === undefined) {
          return; // Where tabpilot owns the browser the tabs watchdog refuses a release of one tab.
        }
        // A release of every tab ends the trace wherever it runs.
        const released = only ?? running?.targetId;
        await discard(released === undefined ? [] : [released]);
      },

      TabLeaseEndedEvent: async (event) => {
        await discard(event.payload.target_ids);
      },

      TabClosedEvent: async (event) => {
        await discard([event.payload.target_id]);
      },

      BrowserStoppedEvent: () => {
        running = undefined;
      },
    };
  },
});
