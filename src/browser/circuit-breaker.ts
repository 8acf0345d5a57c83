import type { BusMiddleware } from '../bus/event-bus';
import { TabpilotError } from '../shared/errors';
import type { ConnectionState } from './session-view';

export interface BreakerView {
  connectionState(): ConnectionState;
  /** Resolves true if a running reconnect succeeds within `timeoutMs`. */
  waitForReconnect(timeoutMs: number): Promise<boolean>;
  reconnectWaitMs(): number;
  /** Why the connection was lost and what to do about it, for the DISCONNECTED answers. */
  lostReason?(): string | undefined;
}

/**
 * The CDP circuit breaker as bus middleware. Lifecycle events always run. Others run when
 * connected; wait for a reconnect in progress (bounded), then fail DISCONNECTED; and fail NOT_ATTACHED
 * after a deliberate stop or before a start. browser-use skips the handler silently in that case.
 */
export function circuitBreaker(view: BreakerView): BusMiddleware {
  return async (invocation, next) => {
    if (invocation.definition.lifecycle) {
      return next();
    }
    switch (view.connectionState()) {
      case 'connected':
      case 'connecting':
        return next();
      case 'reconnecting': {
        const ok = await view.waitForReconnect(view.reconnectWaitMs());
        if (!ok || view.connectionState() !== 'connected') {
          throw new TabpilotError(
            'DISCONNECTED',
            `${invocation.definition.type}: the browser connection is down and did not come back`,
          );
        }
        return next();
      }
      case 'disconnected': {
        const reason = view.lostReason?.();
        throw new TabpilotError(
          'DISCONNECTED',
          `${invocation.definition.type}: the browser connection was lost${reason === undefined ? '' : `: ${reason}`}`,
        );
      }
      case 'idle':
      case 'stopped':
        throw new TabpilotError(
          'NOT_ATTACHED',
          `${invocation.definition.type}: not attached to a browser (attach first)`,
        );
    }
  };
}
