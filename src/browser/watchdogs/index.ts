import type { AnyWatchdog } from '../define-watchdog';
import { contentWatchdog } from './content.watchdog';
import { defaultActionWatchdog } from './default-action.watchdog';
import { domWatchdog } from './dom.watchdog';
import { downloadsWatchdog } from './downloads.watchdog';
import { harRecordingWatchdog } from './har-recording.watchdog';
import { popupsWatchdog } from './popups.watchdog';
import { screenshotWatchdog } from './screenshot.watchdog';
import { storageStateWatchdog } from './storage-state.watchdog';

/**
 * The watchdogs every platform registers, in order. Entries add their own (Node: LocalBrowser and
 * AboutBlank) around this list.
 */
export const SHARED_WATCHDOGS: readonly AnyWatchdog[] = [
  downloadsWatchdog,
  popupsWatchdog,
  screenshotWatchdog,
  domWatchdog,
  contentWatchdog,
  defaultActionWatchdog,
  harRecordingWatchdog,
  storageStateWatchdog,
];
