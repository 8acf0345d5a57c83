import type { ElementHandle, RoutineContext } from '../../src/browser/actions/element';
import { scrollToText, type FindTextOutcome } from '../../src/browser/actions/find-text';
import type { ScrollDirection } from '../../src/browser/actions/in-page-api';
import { handleInFrame } from '../../src/browser/actions/in-page-call';
import { browserPlatform, pressStrokes } from '../../src/browser/actions/keyboard';
import { parseKeys } from '../../src/browser/actions/keys';
import { defaultReadinessMs, navigateAndWait, runAndWaitForCommit } from '../../src/browser/actions/navigation';
import { captureScreenshot } from '../../src/browser/actions/screenshot';
import { scrollPage, type ScrollResult } from '../../src/browser/actions/scroll';
import { typeIntoFocused, type TypingMethod } from '../../src/browser/actions/typing';
import {
  NavigationCompleteEvent,
  NavigationStartedEvent,
  type NavigationOutcome,
  type WaitUntil,
} from '../../src/protocol/events/navigation.events';
import type { BrowserSession } from '../../src/browser/session';
import type { CdpSession } from '../../src/cdp/session';
import { TabpilotError, errorMessageOf } from '../../src/shared/errors';
import { describeException } from '../../src/cdp/errors';
import { bestEffort } from '../../src/shared/logger';
import { Element } from './element';
import { Mouse } from './mouse';

const NAVIGATE_TIMEOUT_MS = 30_000;
const HISTORY_READINESS_MS = 8000;

/** A page function (`() => document.title`) or its source text, run in the page's own world. */
export type PageFunction = string | ((...args: never[]) => unknown);

/**
 * One tab, imperatively (seed 003's Page): navigation, queries, keys, scrolling and screenshots over the
 * same session and the same routines as the action watchdog. It does not take the bus's turn: a script
 * driving a Page runs alongside queued events, as browser-use's actor does. Navigations still pass the
 * session's NavigationStartedEvent, so the security policy applies.
 */
export class Page {
  readonly browser: BrowserSession;
  readonly targetId: string;
  readonly mouse: Mouse;

  constructor(browser: BrowserSession, targetId: string) {
    this.browser = browser;
    this.targetId = targetId;
    this.mouse = new Mouse(this);
  }

  /** The tab's top-level session (re-read each time: a reconnect replaces it). */
  get session(): CdpSession {
    return this.browser.targets.requireSession(this.targetId);
  }

  /** The context the routines run with. */
  routine(): RoutineContext {
    return {
      targets: this.browser.targets,
      log: this.browser.log.child('actor'),
      config: this.browser.config,
      downloads: this.browser.downloads,
    };
  }

  get tabId(): string {
    return this.browser.tabIdOf(this.targetId);
  }

  async goto(url: string, options: { waitUntil?: WaitUntil; timeoutMs?: number } = {}): Promise<NavigationOutcome> {
    const from = this.browser.targets.target(this.targetId)?.url ?? '';
    return this.#navigation(url, () =>
      navigateAndWait(this.browser.targets, this.targetId, {
        url,
        waitUntil: options.waitUntil ?? 'load',
        readinessMs: options.timeoutMs ?? defaultReadinessMs(from, url),
        navigateTimeoutMs: NAVIGATE_TIMEOUT_MS,
        guard: this.browser.guard,
      }),
    );
  }

  goBack(): Promise<NavigationOutcome> {
    return this.#history(-1);
  }

  goForward(): Promise<NavigationOutcome> {
    return this.#history(1);
  }

  async reload(): Promise<NavigationOutcome> {
    const url = this.browser.targets.target(this.targetId)?.url ?? '';
    return this.#navigation(url, () =>
      runAndWaitForCommit(this.browser.targets, this.targetId, (session) => session.send('Page.reload'), {
        waitUntil: 'load',
        readinessMs: HISTORY_READINESS_MS,
        navigateTimeoutMs: NAVIGATE_TIMEOUT_MS,
        guard: this.browser.guard,
      }),
    );
  }

  /**
   * Runs a function in the page's own world (its globals visible) with JSON arguments, and returns its
   * (awaited) JSON result.
   */
  async evaluate<T = unknown>(fn: PageFunction, ...args: unknown[]): Promise<T> {
    const source = typeof fn === 'string' ? fn : fn.toString();
    const response = await this.session.send('Runtime.evaluate', {
      expression: `(${source})(...${JSON.stringify(args)})`,
      returnByValue: true,
      awaitPromise: true,
    });
    if (response.exceptionDetails !== undefined) {
      throw new TabpilotError('INVALID_PARAMS', `evaluate failed: ${describeException(response.exceptionDetails)}`);
    }
    return response.result.value as T;
  }

  async url(): Promise<string> {
    return this.evaluate<string>('() => location.href');
  }

  async title(): Promise<string> {
    return this.evaluate<string>('() => document.title');
  }

  /** Elements of the top document matching a CSS selector (browser-use's get_elements_by_css_selector). */
  async querySelectorAll(selector: string): Promise<Element[]> {
    const session = this.session;
    let listId: string | null;
    try {
      listId = await handleInFrame(session, 'querySelectorAll', selector);
    } catch (error) {
      throw new TabpilotError('INVALID_PARAMS', `Bad selector ${JSON.stringify(selector)}: ${errorMessageOf(error)}`);
    }
    if (listId === null) {
      return [];
    }
    const { result } = await session.send('Runtime.getProperties', { objectId: listId, ownProperties: true });
    void bestEffort(session.send('Runtime.releaseObject', { objectId: listId }), this.browser.log, 'releasing a list');
    return result
      .filter((property) => /^\d+$/.test(property.name) && property.value?.objectId !== undefined)
      .map((property) => this.#element(property.value?.objectId ?? '', `${selector} #${property.name}`));
  }

  async querySelector(selector: string): Promise<Element | null> {
    return (await this.querySelectorAll(selector))[0] ?? null;
  }

  /** The element an index of this tab's latest state names. */
  async elementByIndex(index: number): Promise<Element> {
    return new Element(this, await this.browser.dom.resolve(this.targetId, index));
  }

  /** Presses keys or chords ("Enter", "ControlOrMeta+a", "Tab Tab"); other text is typed. */
  async press(keys: string): Promise<void> {
    const session = this.session;
    const platform = await browserPlatform(session);
    await pressStrokes(session, parseKeys(keys, platform), platform);
  }

  /** Types into whatever has focus. */
  async type(text: string, options: { typing?: TypingMethod } = {}): Promise<void> {
    await typeIntoFocused(this.session, {
      text,
      clear: false,
      typing: options.typing ?? 'insert_text',
      sensitive: false,
      fill: (raw) => raw,
    });
  }

  scroll(direction: ScrollDirection, options: { pages?: number; amount?: number } = {}): Promise<ScrollResult> {
    return scrollPage(this.session, { direction, pages: options.pages ?? 1, amount: options.amount ?? null });
  }

  findText(text: string): Promise<FindTextOutcome> {
    return scrollToText(this.routine(), this.targetId, text);
  }

  async screenshot(
    options: { format?: 'png' | 'jpeg' | 'webp'; quality?: number; fullPage?: boolean } = {},
  ): Promise<string> {
    const shot = await captureScreenshot(this.session, {
      fullPage: options.fullPage ?? false,
      clip: null,
      format: options.format ?? 'png',
      quality: options.quality ?? null,
    });
    return shot.data;
  }

  async setViewportSize(width: number, height: number): Promise<void> {
    await this.session.send('Emulation.setDeviceMetricsOverride', {
      width,
      height,
      deviceScaleFactor: 1,
      mobile: false,
    });
  }

  #element(objectId: string, label: string): Element {
    const session = this.session;
    const handle: ElementHandle = { targetId: this.targetId, session, pageSession: session, objectId, label };
    return new Element(this, handle);
  }

  async #history(step: -1 | 1): Promise<NavigationOutcome> {
    const history = await this.session.send('Page.getNavigationHistory');
    const entry = history.entries[history.currentIndex + step];
    if (entry === undefined) {
      throw new TabpilotError(
        'NAVIGATION_FAILED',
        step < 0 ? 'Cannot go back: first page' : 'Cannot go forward: last page',
      );
    }
    return this.#navigation(entry.url, () =>
      runAndWaitForCommit(
        this.browser.targets,
        this.targetId,
        (session) => session.send('Page.navigateToHistoryEntry', { entryId: entry.id }),
        {
          waitUntil: 'load',
          readinessMs: HISTORY_READINESS_MS,
          navigateTimeoutMs: NAVIGATE_TIMEOUT_MS,
          guard: this.browser.guard,
        },
      ),
    );
  }

  /** A navigation between NavigationStartedEvent (the policy may refuse it) and NavigationCompleteEvent. */
  async #navigation(url: string, navigate: () => Promise<NavigationOutcome>): Promise<NavigationOutcome> {
    const bus = this.browser.bus;
    await bus.emit(NavigationStartedEvent, { target_id: this.targetId, url }, { source: 'actor' });
    let outcome: NavigationOutcome;
    try {
      outcome = await navigate();
    } catch (error) {
      bus.emit(
        NavigationCompleteEvent,
        { target_id: this.targetId, url, error_message: errorMessageOf(error) },
        { source: 'actor' },
      );
      throw error;
    }
    bus.emit(
      NavigationCompleteEvent,
      { target_id: this.targetId, url: outcome.url, loading_status: outcome.loading_status },
      { source: 'actor' },
    );
    return outcome;
  }
}
