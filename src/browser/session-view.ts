import type { AnyEventDefinition } from '../protocol/define-event';
import type { EventRecordView } from '../bus/event-record';
import type { SessionManager } from '../cdp/session-manager';
import type { DomService } from '../dom/dom-service';
import type { DownloadedFiles } from './artifacts/downloaded-files';
import type { BrowserConfig } from './config';
import type { TabConditions } from './guards/tab-conditions';
import type { BrowserHost } from './host';
import type { NavigationGuard } from './security/navigation-guard';
import type { TabRoutes } from './routes/tab-routes';

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'stopped';

/**
 * The read-mostly view of a BrowserSession that watchdogs get. Each piece has one owner:
 * targets, sessions and focus belong to the SessionManager (`targets`); the connection state and config
 * to BrowserSession; tab ids to BrowserSession's TabIds.
 */
export interface BrowserSessionView {
  readonly targets: SessionManager;
  /** Perception and the selector maps; states are taken by the DOM watchdog, read by actions. */
  readonly dom: DomService;
  readonly host: BrowserHost;
  /** The session's downloads; the Downloads watchdog writes it, the state and upload_file read it. */
  readonly downloads: DownloadedFiles;
  /** What is wrong with each tab (crashed, stuck, a challenge); each kind is set by its guard watchdog. */
  readonly conditions: TabConditions;
  readonly config: BrowserConfig;
  /** The URL policy in force; its block log has one writer, the security watchdog. */
  readonly guard: NavigationGuard;
  /**
   * The routes clients set on their tabs (`route`): one writer, the route watchdog; the security
   * watchdog's request gate, the one owner of Fetch interception, answers requests with them.
   */
  readonly routes: TabRoutes;
  readonly connectionState: ConnectionState;
  /** The CDP endpoint in use (a ws:// URL in Node), once known. */
  readonly endpoint: string | undefined;
  tabIdOf(targetId: string): string;
  /** The target a protocol tab_id names among the tabs tabpilot has seen, or undefined. */
  targetOfTab(tabId: string): string | undefined;
  /** The last bus events, oldest first, as the history keeps them (for a state's recent_events). */
  recentEvents(limit: number): EventRecordView[];
  /** An event's handler timeout as configured (a handler leaves itself room inside it). */
  timeoutFor(definition: AnyEventDefinition): number;
  /** The focused page, after any focus recovery; NOT_ATTACHED when there is none. */
  focusedTargetId(): Promise<string>;
  /**
   * The focus change a handler made, to announce as AgentFocusChangedEvent (its own child), or
   * undefined when focus is what was last announced. Claiming it keeps the session from announcing
   * the same change again at the root.
   */
  claimFocusChange(): { target_id: string | null; url: string } | undefined;
}
