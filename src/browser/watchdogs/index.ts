import type { AnyWatchdog } from '../define-watchdog';
import type { BrowserLauncher } from '../launcher';
import { aboutBlankWatchdog } from './about-blank.watchdog';
import { captchaWatchdog } from '../guards/captcha.watchdog';
import { consoleWatchdog } from '../console/console.watchdog';
import { contentWatchdog } from './content.watchdog';
import { controlIndicatorWatchdog } from '../indicator/control-indicator.watchdog';
import { crashWatchdog } from '../guards/crash.watchdog';
import { defaultActionWatchdog } from './default-action.watchdog';
import { domWatchdog } from '../state/dom.watchdog';
import { emulationWatchdog } from '../emulation/emulation.watchdog';
import { flowRecorderWatchdog } from '../flows/flow-recorder.watchdog';
import { downloadsWatchdog } from '../downloads/downloads.watchdog';
import { harRecordingWatchdog } from '../har/har-recording.watchdog';
import { localBrowserWatchdog } from './local-browser.watchdog';
import { navigationWatchdog } from './navigation.watchdog';
import { networkConditionsWatchdog } from '../emulation/network-conditions.watchdog';
import { performanceWatchdog } from '../performance/performance.watchdog';
import { permissionsWatchdog } from '../permissions/permissions.watchdog';
import { popupsWatchdog } from '../guards/popups.watchdog';
import { recordingWatchdog } from '../recording/recording.watchdog';
import { routeWatchdog } from '../routes/route.watchdog';
import { screenshotWatchdog } from './screenshot.watchdog';
import { securityWatchdog } from '../security/security.watchdog';
import { storageStateWatchdog } from '../storage/storage-state.watchdog';
import { tabsWatchdog } from './tabs.watchdog';
import { webSocketGuardWatchdog } from '../security/websocket-guard.watchdog';

export type Platform = 'node' | 'extension';

export interface WatchdogDeps {
  /** Node, when tabpilot launches the browser itself (no cdp_url). */
  launcher?: BrowserLauncher;
}

/**
 * The one list of watchdogs, in the order their handlers run, for each platform. Where tabpilot owns the
 * browser (Node) it also launches it and keeps a tab open; the extension works only in the tabs it was
 * given, so it has neither.
 */
export function watchdogsFor(platform: Platform, deps: WatchdogDeps = {}): AnyWatchdog[] {
  return [
    ...(platform === 'node' && deps.launcher !== undefined ? [localBrowserWatchdog(deps.launcher)] : []),
    ...(platform === 'node' ? [aboutBlankWatchdog] : []),
    crashWatchdog,
    captchaWatchdog,
    securityWatchdog,
    // The browser tabpilot launched holds WebSockets through its guard extension; the extension holds its own.
    ...(platform === 'node' && deps.launcher !== undefined ? [webSocketGuardWatchdog] : []),
    permissionsWatchdog,
    navigationWatchdog,
    // Before the tabs watchdog: a release takes the indicator down, clears the emulation, the network
    // conditions and the routes, and ends a trace and a flow recording while the tab's session still answers.
    controlIndicatorWatchdog,
    emulationWatchdog,
    networkConditionsWatchdog,
    routeWatchdog,
    performanceWatchdog,
    flowRecorderWatchdog,
    tabsWatchdog,
    downloadsWatchdog,
    popupsWatchdog,
    screenshotWatchdog,
    domWatchdog,
    contentWatchdog,
    defaultActionWatchdog,
    harRecordingWatchdog,
    consoleWatchdog,
    storageStateWatchdog,
    recordingWatchdog,
  ];
}
