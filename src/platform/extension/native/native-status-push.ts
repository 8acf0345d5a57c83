import type { NativeStatus } from '../../../protocol/native-panel';
import { errorMessageOf } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import type { PanelHub } from '../panel-hub';

const PUSH_DELAY_MS = 80;

/** Pushes the native status to every open panel, coalesced (a client's burst of changes is one push). */
export function nativeStatusPusher(hub: PanelHub, read: () => NativeStatus, log: Logger): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    if (timer !== undefined || hub.size === 0) {
      return;
    }
    timer = setTimeout(() => {
      timer = undefined;
      try {
        hub.broadcast({ type: 'native', native: read() });
      } catch (error) {
        log.warn('could not read the native status', { error: errorMessageOf(error) });
      }
    }, PUSH_DELAY_MS);
  };
}
