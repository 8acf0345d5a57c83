import type { CdpSession } from '../../cdp/session';
import type { TargetRecord } from '../../cdp/session-manager';
import type { Protocol } from '../../protocol/cdp';
import { errorMessageOf } from '../../shared/errors';
import type { WatchdogContext } from '../define-watchdog';
import { NavigationBlockedEvent, type BLOCK_STAGES } from '../../protocol/events/security.events';
import { RequestGate, type GateBlock } from './request-gate';
import { RecentKeys } from './recent-keys';
import { closeIfBlockedPopup, leaveBlockedPage } from './leave-blocked-page';
import type { BlockedDecision } from './navigation-guard';

/** A subresource URL blocked again within this time is not announced again (a page polling one URL). */
const SUBRESOURCE_REPEAT_MS = 5_000;

/** The events the security watchdog emits. */
export const SECURITY_EVENTS = [NavigationBlockedEvent] as const;

type Stage = (typeof BLOCK_STAGES)[number];

/**
 * What the URL policy does to a page it refuses, wherever the refusal is found (a held request, a
 * commit, a new tab, a policy change): the page leaves for about:blank or its popup closes, once per
 * page and frame however many roads saw it, and each block is announced as NavigationBlockedEvent.
 * Owns the RequestGate that holds every request of a controlled tab.
 */
export class BlockEnforcer {
  readonly #ctx: WatchdogContext<typeof SECURITY_EVENTS>;
  readonly gate: RequestGate;
  readonly #subresourceAnnouncements = new RecentKeys(SUBRESOURCE_REPEAT_MS);
  /**
   * The leaves in flight, by target and frame, each resolving to whether it closed the tab. The same
   * page can be seen blocked twice at once (its held request, its tab announced with the URL, its
   * commit): one leave is enough, and a second would find the tab already closing and call it open.
   */
  readonly #leaving = new Map<string, Promise<boolean>>();

  constructor(ctx: WatchdogContext<typeof SECURITY_EVENTS>) {
    this.#ctx = ctx;
    const { session } = ctx;
    this.gate = new RequestGate(
      session.targets,
      session.guard,
      session.routes,
      ctx.log,
      (block, cdp) => this.#gateBlocked(block, cdp),
      session.host.resolver,
    );
  }

  announce(
    targetId: string,
    url: string,
    decision: BlockedDecision,
    stage: Stage,
    extra: { frame?: 'main' | 'subframe'; tab_closed?: boolean } = {},
  ): void {
    if (this.#ctx.signal.aborted) {
      return;
    }
    this.#ctx.emit(NavigationBlockedEvent, {
      target_id: targetId,
      url,
      rule: decision.rule,
      pattern: decision.pattern,
      reason: decision.reason,
      stage,
      ...extra,
    });
  }

  /** Leaves a page (or, with `frameId`, its frame) the policy refuses, if it does; then announces it. */
  async leaveIfRefused(
    target: TargetRecord,
    session: CdpSession,
    url: string,
    stage: Stage,
    frameId?: string,
  ): Promise<void> {
    const decision = this.#ctx.session.guard.decide(url);
    if (!decision.allowed) {
      await this.#leave(target, session, url, decision, stage, frameId);
    }
  }

  /** A commit the gate did not hold: cached pages, tabs that came under control after they loaded. */
  committed(params: Protocol.Page.FrameNavigatedEvent, session: CdpSession, target: TargetRecord | undefined): void {
    const { frame } = params;
    if (target === undefined || frame.unreachableUrl !== undefined || frame.url.startsWith('chrome-error:')) {
      return;
    }
    const isMain = frame.parentId === undefined && target.type === 'page';
    void this.leaveIfRefused(
      target,
      session,
      frame.url + (frame.urlFragment ?? ''),
      'commit',
      isMain ? undefined : frame.id,
    );
  }

  /** Applies a changed policy: the gate's rules, then every page it now refuses leaves. */
  async policyChanged(): Promise<void> {
    const { targets } = this.#ctx.session;
    await this.gate.reconcile();
    await Promise.all(
      targets.pages().map(async (page) => {
        const session = targets.sessionFor(page.targetId);
        if (page.url !== '' && page.url !== 'about:blank' && session !== undefined) {
          await this.leaveIfRefused(page, session, page.url, 'policy');
        }
      }),
    );
  }

  #leaveOnce(key: string, act: () => Promise<boolean>): { first: boolean; closed: Promise<boolean> } {
    const running = this.#leaving.get(key);
    if (running !== undefined) {
      return { first: false, closed: running };
    }
    const closed = act().finally(() => this.#leaving.delete(key));
    this.#leaving.set(key, closed);
    return { first: true, closed };
  }

  async #leave(
    target: TargetRecord,
    session: CdpSession,
    url: string,
    decision: BlockedDecision,
    stage: Stage,
    frameId: string | undefined,
  ): Promise<void> {
    const { first, closed } = this.#leaveOnce(`${target.targetId}/${frameId ?? 'main'}`, () =>
      leaveBlockedPage(this.#ctx.session.targets, target, session, frameId).catch((error: unknown) => {
        this.#ctx.log.warn('could not leave a blocked page', { url, error: errorMessageOf(error) });
        return false;
      }),
    );
    if (!first) {
      return;
    }
    this.announce(target.pageTargetId ?? target.targetId, url, decision, stage, {
      frame: frameId === undefined ? 'main' : 'subframe',
      tab_closed: await closed,
    });
  }

  #gateBlocked(block: GateBlock, session: CdpSession): void {
    this.#ctx.session.guard.noteBlocked({
      targetId: block.pageTargetId,
      url: block.url,
      decision: block.decision,
      mainFrame: block.mainFrame,
    });
    if (!block.document) {
      // The page stays; only the request failed. A page retrying one URL is announced once a while.
      if (this.#subresourceAnnouncements.first(`${block.pageTargetId} ${block.url}`)) {
        this.announce(block.pageTargetId, block.url, block.decision, 'subresource', { frame: 'subframe' });
      }
      return;
    }
    // A held request is a block of its own: announced even when a leave of its tab is under way.
    const closing = block.mainFrame
      ? this.#leaveOnce(`${block.target.targetId}/main`, () =>
          closeIfBlockedPopup(this.#ctx.session.targets, block.target, session).catch((error: unknown) => {
            this.#ctx.log.warn('could not close a blocked popup', { url: block.url, error: errorMessageOf(error) });
            return false;
          }),
        ).closed
      : Promise.resolve(false);
    void closing.then((closed) =>
      this.announce(block.pageTargetId, block.url, block.decision, 'request', {
        frame: block.mainFrame ? 'main' : 'subframe',
        tab_closed: closed,
      }),
    );
  }
}
