import type { BrowserSession } from '../browser/session';
import { isEventOf } from '../protocol/define-event';
import { TabClosedEvent, TabCreatedEvent, TabLeaseEndedEvent } from '../protocol/events/tabs.events';
import { TabpilotError, errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { silentLogger } from '../shared/logger';
import { fieldOf, isRecord } from '../shared/narrow';
import type { ClientLeases } from './client-leases';
import { PersonPowers, type PersonAsker } from './person-powers';
import type { ActionContext, ActionRegistry, ClientInfo } from './registry';

/** Puts a client's tabs together in the browser (chrome.tabGroups in the extension; Node has none). */
export interface TabGrouper {
  group(targetId: string, client: string): Promise<void>;
  ungroup(targetId: string): Promise<void>;
}

export interface ClientGateOptions {
  leases: ClientLeases;
  grouper?: TabGrouper;
  /** Why no tab may be opened for a client right now (the person pressed Cancel), or undefined. */
  openRefusal?: () => string | undefined;
  /**
   * Why the person holds every client back (their Stop, their Cancel on the debugging bar), or undefined:
   * a client's attach, navigate, search or new tab is refused FORBIDDEN with it until the person resumes.
   */
  hold?: () => string | undefined;
  /**
   * Open each client's new tab in a window of its own (still in the background). Over CDP there are no
   * tab groups, and a background tab in a shared window is hidden: it renders no frames, so a capture
   * waits for one that never comes, and pages waiting for an animation frame or for being seen stall.
   */
  ownWindows?: boolean;
  log?: Logger;
  /** The person to ask before a program uses one of the person's powers (person-powers.ts); none in Node. */
  person?: PersonAsker;
}

/**
 * Several clients in one browser. Every client other than the person (the panel) and in-process
 * callers has its own focused tab and owns the tabs it opened or attached: a command without `tab_id`
 * goes to the client's own tab; a `navigate` from a client with no tab opens a new background tab for
 * it, grouped under its name; a command on another client's tab is refused FORBIDDEN naming the owner;
 * a tab nobody owns may be used, and `switch` or `attach` takes it. The person may act on any tab.
 * `tabs` names each tab's owner. Sits in front of the registry, so every action goes through it.
 */
export class ClientGate {
  readonly #session: BrowserSession;
  readonly #registry: ActionRegistry;
  readonly #leases: ClientLeases;
  readonly #options: ClientGateOptions;
  readonly #log: Logger;
  readonly #powers: PersonPowers;
  #tabActions: Set<string> | undefined;

  constructor(session: BrowserSession, registry: ActionRegistry, options: ClientGateOptions) {
    this.#session = session;
    this.#registry = registry;
    this.#leases = options.leases;
    this.#options = options;
    this.#log = options.log ?? silentLogger;
    this.#powers = new PersonPowers(session, options.leases, options.person);
  }

  get leases(): ClientLeases {
    return this.#leases;
  }

  ownerOf(targetId: string): string | undefined {
    return this.#leases.owner(targetId);
  }

  /** Follows the tabs: a tab opened from a client's tab is that client's; a closed tab's lease ends. */
  install(): () => void {
    return this.#session.bus.observe(({ phase, record }) => {
      if (phase !== 'emitted') {
        return;
      }
      if (isEventOf(record.event, TabCreatedEvent)) {
        const { target_id, opener_target_id } = record.event.payload;
        const owner = opener_target_id === null ? undefined : this.#leases.owner(opener_target_id);
        if (owner !== undefined && this.#leases.owner(target_id) === undefined) {
          this.#leases.lease(owner, target_id);
          this.#group(target_id, owner);
        }
      } else if (isEventOf(record.event, TabClosedEvent)) {
        const { target_id } = record.event.payload;
        if (this.#leases.end(target_id) !== undefined) {
          this.#ungroup(target_id);
        }
      }
    });
  }

  /** Ends a client's leases (the person disconnected it); its tabs stay, owned by nobody. */
  disconnectClient(client: string): string[] {
    const ended = this.#leases.endAll(client);
    for (const targetId of ended) {
      this.#ungroup(targetId);
    }
    if (ended.length > 0) {
      // Not awaited: the person's disconnect answers at once; the bus reports a failed clean-up itself.
      this.#session.bus.emit(TabLeaseEndedEvent, { target_ids: ended, client }, { source: 'panel' });
    }
    return ended;
  }

  async run(
    action: string,
    params: unknown,
    ctx: ActionContext,
    next: (params: unknown) => Promise<unknown>,
  ): Promise<unknown> {
    const declared = this.#registry.get(action);
    if (declared?.personOnly === 'always' && !isPerson(ctx.client)) {
      throw new TabpilotError(
        'FORBIDDEN',
        `${action} is the person's alone (it watches what they do in a tab): only the person may use it, in the side panel or the command line`,
      );
    }
    if (!leasesTabs(ctx.client)) {
      const result = await next(params);
      return declared?.lease === 'list' ? this.#annotateTabs(result, undefined) : result;
    }
    const client = ctx.client.id;
    if (declared?.loadsPage === true) {
      this.#refuseUnderHold(action);
    }
    const given = await this.#powers.vet(action, { ...(isRecord(params) ? params : {}) }, client);
    if (declared?.personOnly === 'extension' && this.#session.host.tabControl !== undefined) {
      throw new TabpilotError(
        'FORBIDDEN',
        `${action} detaches every tab of every client and of the person: only the person may press it (release lets go of your own tabs)`,
      );
    }
    switch (declared?.lease) {
      case 'list':
        return this.#annotateTabs(await next(given), client);
      case 'release':
        return this.#release(client, given, next);
      case 'attach':
        return this.#attach(client, given, next);
      case 'take':
      case undefined:
        break;
    }
    if (!this.#takesTab(action)) {
      return next(given);
    }
    let targetId: string | undefined;
    if (typeof given['tab_id'] === 'string') {
      targetId = this.#session.tabIds.targetFor(given['tab_id']);
      if (targetId !== undefined) {
        this.#checkOwner(targetId, client, action);
      }
    } else {
      const opensTab = declared?.opensTab === true;
      const wantsNewTab = opensTab && given['new_tab'] === true;
      targetId = wantsNewTab ? undefined : this.#leases.focusOf(client);
      if (targetId === undefined) {
        if (!opensTab) {
          throw new TabpilotError(
            'NOT_ATTACHED',
            `${client} has no tab yet: navigate opens one for it, or attach one listed by "tabs"`,
            { details: { client } },
          );
        }
        targetId = await this.#openTabFor(client);
        if ('new_tab' in given) {
          // The tab just opened is the new tab.
          given['new_tab'] = false;
        }
      }
      given['tab_id'] = this.#session.tabIdOf(targetId);
    }
    const result = await next(given);
    if (targetId !== undefined && declared?.lease === 'take') {
      if (this.#leases.owner(targetId) === undefined) {
        this.#leases.lease(client, targetId);
        this.#group(targetId, client);
      }
      this.#leases.setFocus(client, targetId);
    }
    this.#adoptOpened(result, client);
    return result;
  }

  #checkOwner(targetId: string, client: string, action: string): void {
    const owner = this.#leases.owner(targetId);
    if (owner !== undefined && owner !== client) {
      const tabId = this.#session.tabIdOf(targetId);
      throw new TabpilotError(
        'FORBIDDEN',
        `${action}: tab ${tabId} belongs to ${owner}; a client may act only on its own tabs and tabs nobody owns`,
        { details: { tab_id: tabId, owner } },
      );
    }
  }

  /** The person's Stop or Cancel holds: nothing a client sends brings control back until they resume. */
  #refuseUnderHold(action: string): void {
    const reason = this.#options.hold?.();
    if (reason !== undefined) {
      throw new TabpilotError(
        'FORBIDDEN',
        `${action}: ${reason}, so no program may attach, navigate or open a tab until the person presses Resume in the panel`,
        { details: { hold: reason } },
      );
    }
  }

  async #openTabFor(client: string): Promise<string> {
    this.#refuseUnderHold('opening a tab');
    const refusal = this.#options.openRefusal?.();
    if (refusal !== undefined) {
      throw new TabpilotError('NOT_ATTACHED', refusal);
    }
    if (this.#session.connectionState === 'stopped') {
      throw new TabpilotError(
        'NOT_ATTACHED',
        'tabpilot was stopped (the emergency stop, or a release of the browser): no tab opens for a client until the person attaches one again',
      );
    }
    if (this.#session.connectionState !== 'connected') {
      await this.#session.start();
    }
    const page = await this.#session.targets.createPage('about:blank', {
      background: true,
      ...(this.#options.ownWindows === true ? { newWindow: true } : {}),
    });
    this.#leases.lease(client, page.targetId, { focus: true });
    this.#group(page.targetId, client);
    return page.targetId;
  }

  async #attach(
    client: string,
    given: Record<string, unknown>,
    next: (params: unknown) => Promise<unknown>,
  ): Promise<unknown> {
    if (typeof given['tab_id'] === 'string') {
      const known = this.#session.tabIds.targetFor(given['tab_id']);
      if (known !== undefined) {
        this.#checkOwner(known, client, 'attach');
      }
    }
    const result = await next(given);
    const tabId = isRecord(result) ? result['tab_id'] : undefined;
    const targetId = typeof tabId === 'string' ? this.#session.tabIds.targetFor(tabId) : undefined;
    if (targetId === undefined || !isRecord(result)) {
      return result;
    }
    this.#checkOwner(targetId, client, 'attach');
    this.#leases.lease(client, targetId, { focus: true });
    this.#group(targetId, client);
    return { ...result, owner: client };
  }

  async #release(
    client: string,
    given: Record<string, unknown>,
    next: (params: unknown) => Promise<unknown>,
  ): Promise<unknown> {
    let targets: string[];
    if (typeof given['tab_id'] === 'string') {
      const targetId = this.#session.tabIds.targetFor(given['tab_id']);
      if (targetId === undefined) {
        return next(given);
      }
      const owner = this.#leases.owner(targetId);
      if (owner !== client) {
        const tabId = this.#session.tabIdOf(targetId);
        throw new TabpilotError(
          'FORBIDDEN',
          owner === undefined
            ? `release: tab ${tabId} is not leased to ${client} (it belongs to nobody; the person releases it from the panel)`
            : `release: tab ${tabId} belongs to ${owner}`,
          { details: { tab_id: tabId, owner: owner ?? null } },
        );
      }
      targets = [targetId];
    } else {
      targets = this.#leases.tabsOf(client);
    }
    const released: string[] = [];
    for (const targetId of targets) {
      const tabId = this.#session.tabIdOf(targetId);
      await this.#options.grouper?.ungroup(targetId).catch((error: unknown) => this.#logGroupFailure(error));
      this.#leases.end(targetId);
      // Where tabpilot owns the browser, release lets go of all of it: a client lets go of its lease only.
      if (this.#session.host.tabControl !== undefined) {
        await next({ tab_id: tabId });
      }
      released.push(tabId);
    }
    if (this.#session.host.tabControl === undefined && targets.length > 0) {
      await this.#session.bus.emit(TabLeaseEndedEvent, { target_ids: targets, client }, { source: client });
    }
    return { released_tab_ids: released };
  }

  #adoptOpened(result: unknown, client: string): void {
    if (!isRecord(result) || typeof result['opened_tab_id'] !== 'string') {
      return;
    }
    const opened = this.#session.tabIds.targetFor(result['opened_tab_id']);
    if (opened !== undefined && this.#leases.owner(opened) === undefined) {
      this.#leases.lease(client, opened);
      this.#group(opened, client);
    }
  }

  #annotateTabs(result: unknown, client: string | undefined): unknown {
    if (!isRecord(result) || !Array.isArray(result['tabs'])) {
      return result;
    }
    const focus = client === undefined ? undefined : this.#leases.focusOf(client);
    const tabs = result['tabs'].map((tab: unknown) => {
      if (!isRecord(tab)) {
        return tab;
      }
      const tabId = tab['tab_id'];
      const targetId = typeof tabId === 'string' ? this.#session.tabIds.targetFor(tabId) : undefined;
      const owner = targetId === undefined ? undefined : this.#leases.owner(targetId);
      return {
        ...tab,
        ...(client === undefined ? {} : { focused: targetId !== undefined && targetId === focus }),
        owner: tab['controlled'] === true ? (owner ?? null) : null,
      };
    });
    return {
      ...result,
      tabs,
      ...(client === undefined ? {} : { focused_tab_id: focus === undefined ? null : this.#session.tabIdOf(focus) }),
    };
  }

  /** Actions whose params take a tab_id (from the registry's schemas, so new actions need no list here). */
  #takesTab(action: string): boolean {
    this.#tabActions ??= new Set(
      this.#registry
        .describe()
        .filter((described) => {
          const properties = fieldOf(described.params_schema, 'properties');
          return isRecord(properties) && 'tab_id' in properties;
        })
        .map((described) => described.name),
    );
    return this.#tabActions.has(action);
  }

  #group(targetId: string, client: string): void {
    this.#options.grouper?.group(targetId, client).catch((error: unknown) => this.#logGroupFailure(error));
  }

  #ungroup(targetId: string): void {
    this.#options.grouper?.ungroup(targetId).catch((error: unknown) => this.#logGroupFailure(error));
  }

  #logGroupFailure(error: unknown): void {
    this.#log.info('could not group or ungroup a client tab', { error: errorMessageOf(error) });
  }
}

/** The person at their own controls (the side panel, the command line, a test standing in for them), not a program or the agent. */
export function isPerson(client: ClientInfo): boolean {
  return client.kind === 'panel' || client.kind === 'cli' || client.kind === 'test';
}

/** The clients that lease tabs: those that come from outside (native clients, MCP), not the person. */
export function leasesTabs(client: ClientInfo): boolean {
  return client.kind === 'native' || client.kind === 'mcp';
}
