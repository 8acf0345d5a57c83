import type { SessionManager } from '../cdp/session-manager';
import type { TabpilotConfig } from './config';
import type { BrowserHost } from './host';

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'stopped';

/**
 * The read-mostly view of a BrowserSession that watchdogs get. Each piece has one owner:
 * targets, sessions and focus belong to the SessionManager (`cdp`); the connection state and config
 * to BrowserSession; tab ids to BrowserSession's TabIds.
 */
export interface BrowserSessionView {
  readonly cdp: SessionManager;
  readonly host: BrowserHost;
  readonly config: TabpilotConfig;
  readonly connectionState: ConnectionState;
  /** The CDP endpoint in use (a ws:// URL in Node), once known. */
  readonly endpoint: string | undefined;
  tabIdOf(targetId: string): string;
}
