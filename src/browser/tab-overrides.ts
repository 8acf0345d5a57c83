import type { CdpSession } from '../cdp/session';
import { isPageType } from '../cdp/target';
import type { BusEvent } from '../protocol/define-event';
import { ReleaseTabEvent, TabClosedEvent, TabLeaseEndedEvent } from '../protocol/events/tabs.events';
import { bestEffort } from '../shared/logger';
import type { WatchdogContext } from './define-watchdog';

/** How one kind of per-tab override is sent again to a new session and undone. */
export interface OverrideKind<T> {
  /** Said in the log when undoing fails ("the emulation", "the network conditions"). */
  readonly what: string;
  /** Sends what the tab holds to a new session of it (a reconnect attaches new ones). */
  reapply(session: CdpSession, held: T): Promise<void>;
  /** Undoes what the tab holds; `session` is the tab's, when it still has one. */
  undo(held: T, session: CdpSession | undefined): Promise<void>;
}

/** The handlers a watchdog that keeps per-tab overrides must give the tab's end events. */
export interface OverrideEndHandlers {
  ReleaseTabEvent: (event: BusEvent<typeof ReleaseTabEvent>) => Promise<void>;
  TabLeaseEndedEvent: (event: BusEvent<typeof TabLeaseEndedEvent>) => Promise<void>;
  TabClosedEvent: (event: BusEvent<typeof TabClosedEvent>) => Promise<void>;
}

/** What of its watchdog's context TabOverrides uses. */
type OverridesContext = Pick<WatchdogContext<readonly []>, 'session' | 'log' | 'signal'>;

/** The events a watchdog using TabOverrides listens to besides its own action. */
export const OVERRIDE_END_EVENTS = [ReleaseTabEvent, TabLeaseEndedEvent, TabClosedEvent] as const;

/**
 * What a client set on its tabs that CDP keeps per session (emulation, network conditions): held by
 * target, sent again to every new session of the tab, and undone when the client lets the tab go (a
 * release, the end of its lease) or the tab closes, so nothing a client set outlives its hold on the tab.
 * The release handler runs before the tabs watchdog lets the tab go, while its session still answers.
 */
export class TabOverrides<T> {
  readonly #held = new Map<string, T>();
  readonly #ctx: OverridesContext;
  readonly #kind: OverrideKind<T>;

  constructor(ctx: OverridesContext, kind: OverrideKind<T>) {
    this.#ctx = ctx;
    this.#kind = kind;
    const dispose = ctx.session.targets.addSessionSetup(async (session, target) => {
      const held = this.#held.get(target.targetId);
      if (held !== undefined && isPageType(target.type)) {
        await kind.reapply(session, held);
      }
    });
    ctx.signal.addEventListener('abort', dispose, { once: true });
  }

  get(targetId: string): T | undefined {
    return this.#held.get(targetId);
  }

  set(targetId: string, held: T): void {
    this.#held.set(targetId, held);
  }

  /** Forgets a tab's override without undoing it (the action already set the tab back to none). */
  forget(targetId: string): void {
    this.#held.delete(targetId);
  }

  async undo(targetId: string): Promise<void> {
    const held = this.#held.get(targetId);
    this.#held.delete(targetId);
    if (held === undefined) {
      return;
    }
    const session = this.#ctx.session.targets.sessionFor(targetId);
    await bestEffort(this.#kind.undo(held, session), this.#ctx.log, `undoing ${this.#kind.what} of a tab let go`);
  }

  endHandlers(): OverrideEndHandlers {
    return {
      ReleaseTabEvent: async (event) => {
        const only = event.payload.target_id;
        if (only !== undefined && this.#ctx.session.host.tabControl === undefined) {
          return; // Where tabpilot owns the browser the tabs watchdog refuses a release of one tab.
        }
        const released = only === undefined ? [...this.#held.keys()] : [only];
        await Promise.all(released.map((targetId) => this.undo(targetId)));
      },
      // A client let go of tabs tabpilot keeps (Node's release by a client, the person disconnecting one).
      TabLeaseEndedEvent: async (event) => {
        await Promise.all(event.payload.target_ids.map((targetId) => this.undo(targetId)));
      },
      TabClosedEvent: async (event) => {
        await this.undo(event.payload.target_id);
      },
    };
  }
}
