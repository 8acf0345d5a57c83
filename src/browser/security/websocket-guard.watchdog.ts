import { ConfigChangedEvent } from '../../protocol/events/config.events';
import { BrowserReplacedEvent } from '../../protocol/events/connection.events';
import {
  BrowserConnectedEvent,
  BrowserErrorEvent,
  BrowserReconnectedEvent,
} from '../../protocol/events/lifecycle.events';
import { errorMessageOf } from '../../shared/errors';
import { defineWatchdog, type WatchdogHandlerContext } from '../define-watchdog';
import { GuardWorker } from './guard-worker';
import { changesPolicy } from './url-policy';
import { webSocketRules } from './websocket-rules';

type Emits = readonly [typeof BrowserErrorEvent];

/**
 * WebSocketGuardWatchdog (Node, a browser tabpilot launched): puts the URL policy's WebSocket rules into the
 * guard extension the launcher loaded (security/guard-worker.ts) when tabpilot connects, again after a
 * reconnect or in a replacing browser, and whenever the policy changes, before the config change is
 * answered. A browser without the guard cannot hold WebSockets: said as a BrowserErrorEvent when the
 * policy has rules for them, never silently.
 */
export const webSocketGuardWatchdog = defineWatchdog({
  name: 'websocket-guard',
  listensTo: [BrowserConnectedEvent, BrowserReconnectedEvent, BrowserReplacedEvent, ConfigChangedEvent],
  emits: [BrowserErrorEvent] as Emits,
  setup: (ctx) => {
    const guard = new GuardWorker(ctx.session.targets);

    const sync = async (handler: WatchdogHandlerContext<Emits>): Promise<void> => {
      try {
        await guard.sync(ctx.session.config);
      } catch (error) {
        const rules = webSocketRules(ctx.session.config).length;
        if (rules === 0) {
          ctx.log.debug('no WebSocket guard, and no policy that needs one', { error: errorMessageOf(error) });
          return;
        }
        ctx.log.error('WebSocket handshakes are not held to the URL policy', { error: errorMessageOf(error) });
        handler.emit(BrowserErrorEvent, {
          error_type: 'WebSocketsNotHeld',
          message: errorMessageOf(error),
          details: { rules },
        });
      }
    };
    const onConnect = (_event: unknown, handler: WatchdogHandlerContext<Emits>): Promise<void> => sync(handler);

    return {
      BrowserConnectedEvent: onConnect,
      BrowserReconnectedEvent: onConnect,
      BrowserReplacedEvent: onConnect,
      ConfigChangedEvent: async (event, handler) => {
        if (changesPolicy(event.payload.changed) && ctx.session.connectionState === 'connected') {
          await sync(handler);
        }
      },
    };
  },
});
