import type { CdpSession } from '../cdp/session';
import type { SessionManager } from '../cdp/session-manager';
import { errorMessageOf, isTabpilotError, TabpilotError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { silentLogger } from '../shared/logger';
import { capturePage, type PageCapture } from './capture';
import type { ElementHandle, ElementRef } from './element-handle';
import { elementKey, IndexRegistry } from './index-registry';
import { InPageError, pageFunctions, worldCount } from './page-bridge';
import type {
  ChangedElement,
  CollectStats,
  ElementLocator,
  FindOptions,
  FoundElement,
  MarkdownOptions,
  MarkdownResult,
  PageMetrics,
  PerceptionHandleFunctions,
  PerceptionValueFunctions,
  SearchMatch,
  SearchOptions,
  WorldRetention,
} from './payload';
import { serialize, type SelectorEntry } from './serializer';

export interface DomStateOptions {
  /** CSS px beyond the viewport still shown; -1 shows the whole page. */
  viewportExpansion: number;
  /** Character budget of the text; 0 turns it off. */
  maxChars: number;
  maxTextLength?: number;
  /** Text a person cannot see: left out (the default) or kept, marked `[hidden: why]`. */
  hiddenText?: 'omit' | 'mark';
  signal?: AbortSignal;
}

/** What perception keeps between states, in counts (a debug accessor; nothing here is timed). */
export interface DomRetention {
  /** Pages with a selector map (one per open tab that had a state). */
  pages: number;
  /** Elements with a stable index, over all pages. */
  indexed: number;
  /** Entries of the pages' latest selector maps. */
  selector_entries: number;
  /** tabpilot's isolated worlds in this process (one per live page and out-of-process frame looked into). */
  worlds: number;
}

export interface DomState {
  targetId: string;
  text: string;
  entries: SelectorEntry[];
  metrics: PageMetrics;
  /** The document the indexes belong to: a new number each time a tab's numbering starts anew. */
  document: number;
  stats: CollectStats;
  truncated: boolean;
  timings: { total_ms: number; in_page_ms: number };
}

/** Element handles given to actions; released when the next state makes them stale. */
const ELEMENT_GROUP = 'tabpilot-element';

const PAGE = pageFunctions<PerceptionValueFunctions, PerceptionHandleFunctions>();
const ELEMENTS = PAGE.with({ group: ELEMENT_GROUP });

interface PageState {
  indexes: IndexRegistry;
  /** The main frame's world in the latest state: a new one means a new document. */
  mainContextId: number | undefined;
  /** The number of the document the registry numbers (see DomState.document). */
  document: number;
  selectorMap: Map<number, SelectorEntry>;
  states: number;
}

/**
 * Perception: the page as the model sees it. Captures with one in-page pass per frame in an isolated
 * world (plus CDP only for out-of-process frames and closed shadow roots), serializes to browser-use's
 * text form, and keeps each page's selector map so actions can resolve an index.
 */
export class DomService {
  readonly #targets: SessionManager;
  readonly #log: Logger;
  readonly #pages = new Map<string, PageState>();
  /** Sessions holding element handles given out by resolve(); a new state makes them stale. */
  readonly #handleSessions = new Set<CdpSession>();
  /** Documents numbered so far, over all tabs: a document's number is never given again. */
  #documents = 0;

  constructor(targets: SessionManager, logger: Logger = silentLogger) {
    this.#targets = targets;
    this.#log = logger;
  }

  async state(targetId: string, options: DomStateOptions): Promise<DomState> {
    const started = performance.now();
    this.#releaseHandles();
    this.#dropGone();
    const page = this.#pageState(targetId);
    const capture = await this.#capture(targetId, page, options);
    if (page.mainContextId !== capture.mainContextId) {
      // A new document numbers its elements from 1 again; indexes of the old one resolve to nothing.
      page.mainContextId = capture.mainContextId;
      page.indexes = new IndexRegistry();
      page.document = ++this.#documents;
    }
    const seen = new Set<string>();
    const serialized = serialize(
      capture,
      capture.metrics,
      targetId,
      (frame, id) => {
        const key = elementKey(frame.sessionId, frame.contextId, id);
        seen.add(key);
        return page.indexes.indexFor(key);
      },
      {
        maxChars: options.maxChars,
        wholePage: options.viewportExpansion < 0,
        viewportExpansion: options.viewportExpansion,
      },
    );
    page.indexes.retainOnly(seen);
    page.selectorMap = new Map(serialized.entries.map((entry) => [entry.index, entry]));
    page.states++;
    return {
      targetId,
      text: serialized.text,
      entries: serialized.entries,
      metrics: capture.metrics,
      document: page.document,
      stats: capture.stats,
      truncated: serialized.truncated,
      timings: { total_ms: Math.round(performance.now() - started), in_page_ms: Math.round(capture.inPageMs) },
    };
  }

  /** The entry an index names in a page's latest state. */
  entry(targetId: string, index: number): SelectorEntry | undefined {
    return this.#pages.get(targetId)?.selectorMap.get(index);
  }

  /**
   * How a flow names the element an index names in the page's latest state (src/dom/in-page/locator.ts
   * derives it, as for the person's recording); null when the index is unknown or the element is gone.
   */
  async locatorOf(targetId: string, index: number): Promise<ElementLocator | null> {
    const entry = this.entry(targetId, index);
    if (entry === undefined) {
      return null;
    }
    return PAGE.callInContext(this.#sessionById(entry), entry.contextId, 'locatorOf', entry.localId);
  }

  /**
   * Finds an indexed element again, in the document of the state that gave the index: ELEMENT_NOT_FOUND
   * ("take a new state") when the index is unknown, or its frame, its document or the element is gone.
   */
  async resolve(targetId: string, index: number): Promise<ElementHandle> {
    return (await this.resolveWith(targetId, index, () => Promise.resolve(undefined))).handle;
  }

  /**
   * resolve, with `alongside` (a call on the element by its id) sent at the same time instead of after
   * the handle came back: one round trip for both. The handle's failure comes first; `alongside`'s next.
   */
  async resolveWith<T>(
    targetId: string,
    index: number,
    alongside: (ref: ElementRef) => Promise<T>,
  ): Promise<{ handle: ElementHandle; alongside: T }> {
    const entry = this.entry(targetId, index);
    if (entry === undefined) {
      throw new TabpilotError(
        'ELEMENT_NOT_FOUND',
        `No element with index ${index} in the latest state of this tab (take a new state)`,
        {
          details: { index },
        },
      );
    }
    const session = this.#sessionById(entry);
    const pageSession = this.#targets.requireSession(targetId);
    this.#handleSessions.add(session);
    const [resolved, beside] = await Promise.allSettled([
      ELEMENTS.handleInContext(session, entry.contextId, 'resolve', entry.localId),
      alongside({ targetId, session, pageSession, contextId: entry.contextId, localId: entry.localId }),
    ]);
    if (resolved.status === 'rejected') {
      if (!isTabpilotError(resolved.reason) || resolved.reason.code !== 'ELEMENT_NOT_FOUND') {
        throw resolved.reason;
      }
    } else if (resolved.value !== null) {
      if (beside.status === 'rejected') {
        throw beside.reason;
      }
      return {
        handle: { targetId, session, pageSession, objectId: resolved.value, label: `element ${index}` },
        alongside: beside.value,
      };
    }
    throw new TabpilotError('ELEMENT_NOT_FOUND', `Element ${index} is no longer on the page (take a new state)`, {
      details: { index },
    });
  }

  /**
   * Gives an element found outside a state (by `find`) an index in the page's latest state, so actions
   * take it like any other: the same index as the state's when the state indexed it too. It lasts as
   * the state's indexes do (until the element goes, or the next state no longer holds it).
   */
  adopt(targetId: string, mainContextId: number, element: Omit<SelectorEntry, 'index' | 'isNew' | 'targetId'>): number {
    const page = this.#pageState(targetId);
    if (page.mainContextId !== mainContextId) {
      // A document no state has seen yet: the old one's indexes name nothing in it.
      page.mainContextId = mainContextId;
      page.indexes = new IndexRegistry();
      page.document = ++this.#documents;
      page.selectorMap = new Map();
    }
    const index = page.indexes.indexFor(elementKey(element.sessionId, element.contextId, element.localId));
    if (!page.selectorMap.has(index)) {
      page.selectorMap.set(index, { ...element, index, isNew: false, targetId });
    }
    return index;
  }

  /**
   * The index an element of an action's outcome has in the page's latest state: an element that
   * appeared or changed is given one (as `adopt` does), one that went keeps the one it had, if any.
   */
  outcomeIndex(
    targetId: string,
    contextId: number,
    sessionId: string,
    element: ChangedElement,
    give: boolean,
  ): number | null {
    if (give) {
      return this.adopt(targetId, contextId, {
        tag: element.tag,
        role: element.role,
        name: element.name,
        attributes: {},
        box: element.box,
        sessionId,
        contextId,
        localId: element.id,
      });
    }
    const page = this.#pages.get(targetId);
    if (page?.mainContextId !== contextId) {
      return null;
    }
    return page.indexes.find(elementKey(sessionId, contextId, element.id)) ?? null;
  }

  /** Outlines an indexed element for a person (or clears the outline). */
  async highlight(targetId: string, index: number | null): Promise<void> {
    if (index === null) {
      await PAGE.callInFrame(this.#targets.requireSession(targetId), 'highlight', null, '');
      return;
    }
    const entry = this.entry(targetId, index);
    if (entry === undefined) {
      throw new TabpilotError('ELEMENT_NOT_FOUND', `No element with index ${index} in the latest state of this tab`);
    }
    await PAGE.callInContext(
      this.#sessionById(entry),
      entry.contextId,
      'highlight',
      entry.localId,
      `[${index}] ${entry.tag}`,
    );
  }

  /** The page's main frame content as markdown (no model involved), a chunk at a time. */
  async markdown(targetId: string, options: MarkdownOptions): Promise<MarkdownResult> {
    return (await this.#inMainWorld(targetId, 'markdown', options)).value;
  }

  /** Text matches on the page, with their context and where they are. */
  async searchPage(targetId: string, options: SearchOptions): Promise<{ matches: SearchMatch[]; total: number }> {
    return (await this.#inMainWorld(targetId, 'search', options)).value;
  }

  /** Elements matching a CSS selector; those indexed in the latest state carry their index. */
  async findElements(
    targetId: string,
    options: FindOptions,
  ): Promise<{ elements: Array<FoundElement & { index: number | null }>; total: number }> {
    const { value, contextId } = await this.#inMainWorld(targetId, 'cssQuery', options);
    const sessionId = this.#targets.requireSession(targetId).sessionId;
    const byLocal = new Map<number, number>();
    for (const entry of this.#pages.get(targetId)?.selectorMap.values() ?? []) {
      if (entry.sessionId === sessionId && entry.contextId === contextId) {
        byLocal.set(entry.localId, entry.index);
      }
    }
    return {
      total: value.total,
      elements: value.elements.map((element) => ({
        ...element,
        index: element.id === null ? null : (byLocal.get(element.id) ?? null),
      })),
    };
  }

  /** Runs in the page's main frame world; a script error there is the caller's bad input (a selector, a regex). */
  async #inMainWorld<K extends 'markdown' | 'search' | 'cssQuery'>(
    targetId: string,
    name: K,
    options: PerceptionValueFunctions[K]['args'][0],
  ): Promise<{ value: PerceptionValueFunctions[K]['result']; contextId: number }> {
    const session = this.#targets.requireSession(targetId);
    try {
      return await PAGE.callInFrameWorld(session, name, ...([options] as PerceptionValueFunctions[K]['args']));
    } catch (error) {
      if (!(error instanceof InPageError)) {
        throw error;
      }
      throw new TabpilotError('INVALID_PARAMS', errorMessageOf(error).replace(/^in-page \w+ failed: (Error: )?/, ''), {
        cause: error,
      });
    }
  }

  #releaseHandles(): void {
    for (const session of this.#handleSessions) {
      if (!session.detached) {
        void session.send('Runtime.releaseObjectGroup', { objectGroup: ELEMENT_GROUP }).catch((error: unknown) => {
          this.#log.debug('could not release element handles', { error: errorMessageOf(error) });
        });
      }
    }
    this.#handleSessions.clear();
  }

  /** Pages no longer known (closed, or released in the extension) go; a world goes with its session. */
  #dropGone(): void {
    for (const targetId of this.#pages.keys()) {
      if (this.#targets.target(targetId) === undefined) {
        this.#pages.delete(targetId);
      }
    }
  }

  /** Drops what is kept for a page (it closed); its frames' worlds went with their sessions. */
  forget(targetId: string): void {
    this.#pages.delete(targetId);
  }

  /** What the isolated world of a page's main frame holds (a debug accessor). */
  async worldRetention(targetId: string): Promise<WorldRetention> {
    const session = this.#targets.requireSession(targetId);
    return PAGE.callInFrame(session, 'retention');
  }

  retention(): DomRetention {
    let indexed = 0;
    let entries = 0;
    for (const page of this.#pages.values()) {
      indexed += page.indexes.size;
      entries += page.selectorMap.size;
    }
    return { pages: this.#pages.size, indexed, selector_entries: entries, worlds: worldCount(this.#liveSessions()) };
  }

  /** The sessions of the targets known now (pages and out-of-process frames). */
  *#liveSessions(): Iterable<CdpSession> {
    for (const target of this.#targets.targets()) {
      const session = this.#targets.sessionFor(target.targetId);
      if (session !== undefined) {
        yield session;
      }
    }
  }

  #sessionById(entry: SelectorEntry): CdpSession {
    const session = this.#targets.sessionForId(entry.sessionId);
    if (session === undefined) {
      throw new TabpilotError('ELEMENT_NOT_FOUND', `The frame of element ${entry.index} is gone (take a new state)`);
    }
    return session;
  }

  #pageState(targetId: string): PageState {
    let page = this.#pages.get(targetId);
    if (page === undefined) {
      page = { indexes: new IndexRegistry(), mainContextId: undefined, document: 0, selectorMap: new Map(), states: 0 };
      this.#pages.set(targetId, page);
    }
    return page;
  }

  async #capture(targetId: string, page: PageState, options: DomStateOptions): Promise<PageCapture> {
    return capturePage({
      targets: this.#targets,
      pageTargetId: targetId,
      stateKey: `${targetId}#${page.states}`,
      options: {
        viewportExpansion: options.viewportExpansion,
        maxTextLength: options.maxTextLength ?? 200,
        hiddenText: options.hiddenText ?? 'omit',
        maxChars: options.maxChars,
      },
      markNew: page.states > 0,
      log: this.#log,
      signal: options.signal,
    });
  }
}
