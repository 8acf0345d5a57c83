import { defineWatchdog } from '../define-watchdog';
import { CrashMonitor } from './crash-monitor';
import { followCrashes } from './follow-crashes';
import { BrowserErrorEvent } from '../../protocol/events/lifecycle.events';
import { TabClosedEvent, TargetCrashedEvent } from '../../protocol/events/tabs.events';

/**
 * CrashWatchdog (browser-use ships it switched off; ours is on). A crashed renderer (Inspector or Target
 * targetCrashed) marks its tab crashed at once, from the CDP event itself: the bus may be held by the
 * very command that now hangs (over chrome.debugger a crashed tab answers nothing until a reload), so
 * that command and every later one fail with TAB_CRASHED until `refresh` reloads the page. A bounded
 * health check (Runtime.evaluate, answered only by a free main thread) finds a stuck page the same way,
 * fails what waits on it, and lets `refresh` end the renderer before reloading. Requests open past a
 * bound are reported once and shown in the tab's state.
 */
export const crashWatchdog = defineWatchdog({
  name: 'crash',
  listensTo: [TargetCrashedEvent, TabClosedEvent],
  emits: [BrowserErrorEvent],
  enabled: (config) => config.crash.enabled,
  setup: (ctx) => {
    const monitor = new CrashMonitor(ctx.session, ctx.log, (error) => {
      ctx.emit(BrowserErrorEvent, error);
    });
    followCrashes(ctx.session.targets, monitor, () => ctx.session.config.crash, ctx.signal);
    return {
      TargetCrashedEvent: (event, hctx) => {
        const report = monitor.takeCrashReport(event.payload.target_id, event.payload.error);
        if (report !== undefined) {
          hctx.emit(BrowserErrorEvent, report);
        }
      },
      TabClosedEvent: (event) => monitor.forget(event.payload.target_id),
    };
  },
});
