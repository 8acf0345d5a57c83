import type { BrowserSession } from '../../src/browser/session';
import { Page } from './page';

export { Element, type ElementFunction, type ElementInfo } from './element';
export { Mouse } from './mouse';
export { Page, type PageFunction } from './page';

/**
 * The imperative surface over a running BrowserSession (seed 003, browser-use's actor): tabs as Pages,
 * their Elements and Mouse. Use it from scripts and tests in the same process as the session; protocol
 * clients use the tools instead.
 */
export class Actor {
  readonly session: BrowserSession;

  constructor(session: BrowserSession) {
    this.session = session;
  }

  /** Opens a tab (blank, or at `url`) and returns it. */
  async newPage(url?: string): Promise<Page> {
    const target = await this.session.targets.createPage('about:blank');
    const page = new Page(this.session, target.targetId);
    if (url !== undefined) {
      await page.goto(url);
    }
    return page;
  }

  pages(): Page[] {
    return this.session.targets.pages().map((target) => new Page(this.session, target.targetId));
  }

  /** The tab the agent works in. */
  async currentPage(): Promise<Page> {
    return new Page(this.session, await this.session.focusedTargetId());
  }

  /** A tab by its protocol tab_id or its target id. */
  page(id: string): Page {
    return new Page(this.session, this.session.tabIds.targetFor(id) ?? id);
  }

  async closePage(page: Page): Promise<void> {
    await this.session.targets.closeTarget(page.targetId);
  }
}
