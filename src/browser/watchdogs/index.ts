import type { AnyWatchdog } from '../define-watchdog';
import type { BrowserLauncher } from '../launcher';
import { aboutBlankWatchdog } from './about-blank.watchdog';
import { captchaWatchdog } from './captcha.watchdog';
import { consoleWatchdog } from './console.watchdog';
import { contentWatchdog } from './content.watchdog';
import { controlIndicatorWatchdog } from './control-indicator.watchdog';
import { crashWatchdog } from './crash.watchdog';
import { defaultActionWatchdog } from './default-action.watchdog';
import { domWatchdog } from './dom.watchdog';
import { emulationWatchdog } from './emulation.watchdog';
import { downloadsWatchdog } from './downloads.watchdog';
import { harRecordingWatchdog } from './har-recording.watchdog';
import { localBrowserWatchdog } from './local-browser.watchdog';
import { navigationWatchdog } from './navigation.watchdog';
import { networkConditionsWatchdog } from './network-conditions.watchdog';
import { performanceWatchdog } from './performance.watchdog';
import { permissionsWatchdog } from './permissions.watchdog';
import { popupsWatchdog } from './popups.watchdog';
import { recordingWatchdog } from './recording.watchdog';
import { routeWatchdog } from './route.watchdog';
import { screenshotWatchdog } from './screenshot.watchdog';
import { securityWatchdog } from './security.watchdog';
import { storageStateWatchdog } from './storage-state.watchdog';
import { tabsWatchdog } from './tabs.watchdog';
import { webSocketGuardWatchdog } from './websocket-guard.watchdog';

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
    // conditions and the routes, and ends a trace while the tab's session still answers.
    controlIndicatorWatchdog,
    emulationWatchdog,
    networkConditionsWatchdog,
    routeWatchdog,
    performanceWatchdog,
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
