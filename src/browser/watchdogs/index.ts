import type { AnyWatchdog } from '../define-watchdog';
import { contentWatchdog } from './content.watchdog';
import { defaultActionWatchdog } from './default-action.watchdog';
import { domWatchdog } from './dom.watchdog';
import { permissionsWatchdog } from './permissions.watchdog';
import { popupsWatchdog } from './popups.watchdog';
import { screenshotWatchdog } from './screenshot.watchdog';
import { securityWatchdog } from './security.watchdog';

/**
 * The watchdogs every platform registers, in order. Entries add their own (Node: LocalBrowser and
 * AboutBlank) around this list.
 */
export const SHARED_WATCHDOGS: readonly AnyWatchdog[] = [
  securityWatchdog,
  permissionsWatchdog,
  popupsWatchdog,
  screenshotWatchdog,
  domWatchdog,
  contentWatchdog,
  defaultActionWatchdog,
];
