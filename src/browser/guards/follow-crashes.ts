import { tabOf, type SessionManager } from '../../cdp/session-manager';
import { disposeOnAbort } from '../../shared/dispose';
import type { BrowserConfig } from '../config';
import type { CrashMonitor } from './crash-monitor';

/** How often open requests are checked against their bound. */
const REQUEST_SWEEP_MS = 250;

/**
 * Feeds `monitor` from the CDP events (crashes, recoveries, dialogs, requests) and runs its health checks
 * and request sweeps on timers, until `signal` aborts; then every page it held is let go.
 */
export function followCrashes(
  targets: SessionManager,
  monitor: CrashMonitor,
  config: () => BrowserConfig['crash'],
  signal: AbortSignal,
): void {
  const onTab = (targetId: string | undefined, act: (targetId: string) => void): void => {
    if (targetId !== undefined) {
      act(targetId);
    }
  };
  const disposers = [
    targets.on('Inspector.targetCrashed', (_params, source) => onTab(tabOf(source), (id) => monitor.markCrashed(id))),
    targets.on('Target.targetCrashed', (params) => {
      if (targets.target(params.targetId) !== undefined) {
        monitor.markCrashed(params.targetId);
      }
    }),
    targets.on('Inspector.targetReloadedAfterCrash', (_params, source) =>
      onTab(tabOf(source), (id) => monitor.recovered(id)),
    ),
    // Chromium does not always send targetReloadedAfterCrash (a renderer ended by Page.crash while stuck):
    // a new main document in a crashed page is the same news.
    targets.on('Page.frameNavigated', (params, source) => {
      const targetId = tabOf(source);
      if (
        targetId !== undefined &&
        params.frame.parentId === undefined &&
        source.target?.targetId === targetId &&
        monitor.isCrashed(targetId)
      ) {
        monitor.recovered(targetId);
      }
    }),
    targets.on('Page.javascriptDialogOpening', (_params, source) =>
      onTab(tabOf(source), (id) => monitor.dialogOpened(id)),
    ),
    targets.on('Page.javascriptDialogClosed', (_params, source) =>
      onTab(tabOf(source), (id) => monitor.dialogClosed(id)),
    ),
    targets.on('Network.requestWillBeSent', (params, source) => {
      const targetId = tabOf(source);
      // Favicons and other browser-initiated loads ("Other") often get no end event at all.
      if (targetId !== undefined && params.type !== undefined && params.type !== 'Other') {
        monitor.requestStarted(`${source.session.sessionId}:${params.requestId}`, {
          targetId,
          url: params.request.url,
          method: params.request.method,
          resourceType: params.type,
        });
      }
    }),
    targets.on('Network.loadingFinished', (params, source) =>
      monitor.requestEnded(`${source.session.sessionId}:${params.requestId}`, tabOf(source)),
    ),
    targets.on('Network.loadingFailed', (params, source) =>
      monitor.requestEnded(`${source.session.sessionId}:${params.requestId}`, tabOf(source)),
    ),
    targets.addSessionSetup(async (session, target) => {
      if (config().network_timeout_ms > 0 && (target.type === 'page' || target.type === 'iframe')) {
        // Small buffers: the Network domain is on only to see requests start and end, not to keep bodies.
        await session.send('Network.enable', { maxTotalBufferSize: 1_000_000, maxResourceBufferSize: 100_000 });
      }
    }),
  ];

  // Re-read each round, so a changed interval applies without re-attaching.
  let healthTimer: ReturnType<typeof setTimeout> | undefined;
  const scheduleHealth = (): void => {
    const interval = config().health_check_interval_ms;
    healthTimer = setTimeout(
      () => {
        if (interval > 0) {
          monitor.checkHealth();
        }
        scheduleHealth();
      },
      interval > 0 ? interval : 1000,
    );
  };
  scheduleHealth();
  const sweepTimer = setInterval(() => monitor.sweepRequests(), REQUEST_SWEEP_MS);
  disposeOnAbort(signal, [
    () => clearTimeout(healthTimer),
    () => clearInterval(sweepTimer),
    ...disposers,
    () => monitor.releaseAll(),
  ]);
}
