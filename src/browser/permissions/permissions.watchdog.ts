import { errorMessageOf } from '../../shared/errors';
import { defineWatchdog, type WatchdogHandlerContext } from '../define-watchdog';
import { ConfigChangedEvent } from '../../protocol/events/config.events';
import { BrowserReplacedEvent } from '../../protocol/events/connection.events';
import {
  BrowserConnectedEvent,
  BrowserErrorEvent,
  BrowserReconnectedEvent,
} from '../../protocol/events/lifecycle.events';
import { ungrantable, ungrantableError } from './permission-granter';

type Emits = readonly [typeof BrowserErrorEvent];

/**
 * PermissionsWatchdog: grants the config's `permissions` to every site when tabpilot connects, again
 * after a reconnect or in a browser that replaced the lost one (a pool's), and as soon as the config changes (withdrawing what was removed), through the
 * platform's granter (Browser.grantPermissions in Node, chrome.contentSettings in the extension).
 * browser-use logs a failed grant and carries on; here it is a BrowserErrorEvent naming each permission
 * at connect, and an error for whoever changed the config (the panel's save shows it).
 */
export const permissionsWatchdog = defineWatchdog({
  name: 'permissions',
  listensTo: [BrowserConnectedEvent, BrowserReconnectedEvent, BrowserReplacedEvent, ConfigChangedEvent],
  emits: [BrowserErrorEvent] as Emits,
  setup: (ctx) => {
    /** What the browser was last given, so nothing is sent when nothing is wanted or changed. */
    let granted: readonly string[] = [];

    const apply = async (): Promise<void> => {
      const wanted = ctx.session.config.permissions;
      if (wanted.length === 0 && granted.length === 0) {
        return;
      }
      const granter = ctx.session.host.permissions;
      const refused = ungrantable(wanted, granter);
      if (granter === undefined || refused.length > 0) {
        throw ungrantableError(refused, granter);
      }
      await granter.apply(wanted, ctx.session.targets);
      granted = [...wanted];
    };

    // A fresh browser-level connection (a start, a reconnect, another browser) holds none of the earlier grants.
    const onConnect = async (_event: unknown, handler: WatchdogHandlerContext<Emits>): Promise<void> => {
      granted = [];
      try {
        await apply();
      } catch (error) {
        ctx.log.error('could not grant the configured permissions', { error: errorMessageOf(error) });
        handler.emit(BrowserErrorEvent, {
          error_type: 'PermissionsNotGranted',
          message: errorMessageOf(error),
          details: { field: 'permissions' },
        });
      }
    };

    return {
      BrowserConnectedEvent: onConnect,
      BrowserReconnectedEvent: onConnect,
      BrowserReplacedEvent: onConnect,
      ConfigChangedEvent: async (event) => {
        if (event.payload.changed.includes('permissions') && ctx.session.connectionState === 'connected') {
          await apply();
        }
      },
    };
  },
});
