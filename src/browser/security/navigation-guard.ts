import { TabpilotError } from '../../shared/errors';
import { UrlPolicy, type PolicyConfig, type UrlDecision } from './url-policy';

export type BlockedDecision = Extract<UrlDecision, { allowed: false }>;

/** A URL refused before anything was sent (navigate, a history move, the actor's goto). */
export interface Refusal {
  /** The tab it was meant for. */
  readonly targetId: string;
  readonly url: string;
  readonly decision: BlockedDecision;
}

/** A document request the security watchdog failed, for the navigation that caused it to name the rule. */
export interface BlockRecord {
  /** The page (tab) target. */
  readonly targetId: string;
  readonly url: string;
  readonly decision: BlockedDecision;
  readonly mainFrame: boolean;
  readonly at: number;
}

/** How long a block is remembered for the navigation waiting on it (a navigate answers within this). */
const BLOCK_MEMORY_MS = 60_000;
const MAX_RECORDS = 64;

/** URL_BLOCKED naming the rule; `blockedUrl` is where the navigation led when that was another URL (a redirect). */
export function urlBlockedError(url: string, decision: BlockedDecision, blockedUrl = url): TabpilotError {
  const via = blockedUrl === url ? '' : ` (it led to ${blockedUrl})`;
  return new TabpilotError(
    'URL_BLOCKED',
    `Navigation to ${url} blocked by ${decision.rule}: ${decision.reason}${via}`,
    {
      details: { url: blockedUrl, rule: decision.rule, pattern: decision.pattern },
    },
  );
}

/**
 * The session's URL policy in force, shared by every road that loads a page: the navigate routines ask
 * it before sending anything (`check`, whose refusals the security watchdog announces); the security
 * watchdog asks it for each document request and records what it failed here (its one writer), so a
 * navigation whose request was failed at the network answers URL_BLOCKED with the rule instead of a bare
 * net::ERR_ABORTED.
 */
/** What the guard reads its policy from: the session. */
export interface GuardSource {
  readonly config: PolicyConfig;
  readonly targets: { readonly drivesBrowserPages: boolean };
}

export class NavigationGuard {
  readonly #source: GuardSource;
  readonly #records: BlockRecord[] = [];
  readonly #watchers = new Set<(record: BlockRecord) => void>();
  readonly #refusalListeners = new Set<(refusal: Refusal) => void>();
  #compiledFrom: PolicyConfig | undefined;
  #policy: UrlPolicy | undefined;

  /** `source` is read at each decision: the config in force, and whether the transport drives browser pages. */
  constructor(source: GuardSource) {
    this.#source = source;
  }

  /** The compiled policy, rebuilt when the config object is replaced. */
  get policy(): UrlPolicy {
    const config = this.#source.config;
    if (this.#policy === undefined || config !== this.#compiledFrom) {
      this.#policy = new UrlPolicy(config);
      this.#compiledFrom = config;
    }
    return this.#policy;
  }

  decide(url: string): UrlDecision {
    return this.policy.decide(url, { drivesBrowserPages: this.#source.targets.drivesBrowserPages });
  }

  /**
   * Throws URL_BLOCKED naming the rule when the policy refuses the URL, and tells the refusal listeners
   * (the security watchdog announces it). `targetId` is the tab the URL was meant for.
   */
  check(url: string, targetId: string): void {
    const decision = this.decide(url);
    if (decision.allowed) {
      return;
    }
    for (const listener of [...this.#refusalListeners]) {
      listener({ targetId, url, decision });
    }
    throw urlBlockedError(url, decision);
  }

  /** Calls `listener` for each refusal by `check`; returns the disposer. */
  onRefused(listener: (refusal: Refusal) => void): () => void {
    this.#refusalListeners.add(listener);
    return () => this.#refusalListeners.delete(listener);
  }

  /** Records a request the watchdog failed and tells the navigations watching that tab. */
  noteBlocked(record: Omit<BlockRecord, 'at'>): void {
    const full: BlockRecord = { ...record, at: Date.now() };
    this.#records.push(full);
    if (this.#records.length > MAX_RECORDS) {
      this.#records.shift();
    }
    for (const watcher of [...this.#watchers]) {
      watcher(full);
    }
  }

  /** The latest main-frame block of a tab since `since` (a Date.now() taken before navigating). */
  mainFrameBlockSince(targetId: string, since: number): BlockRecord | undefined {
    const floor = Math.max(since, Date.now() - BLOCK_MEMORY_MS);
    for (let i = this.#records.length - 1; i >= 0; i--) {
      const record = this.#records[i];
      if (record !== undefined && record.at >= floor && record.targetId === targetId && record.mainFrame) {
        return record;
      }
    }
    return undefined;
  }

  /** Calls `listener` for each network block recorded from now on; returns the disposer. */
  watch(listener: (record: BlockRecord) => void): () => void {
    this.#watchers.add(listener);
    return () => this.#watchers.delete(listener);
  }
}
