import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../test/fakes/fake-browser';
import { isSameBrowser, readBrowserIdentity, type BrowserIdentity } from './browser-identity';
import { CdpConnection } from './connection';

const identity = (browserId: string | undefined, pageIds: string[] = []): BrowserIdentity => ({
  browserId,
  targetType: browserId === undefined ? undefined : 'browser',
  pageIds,
});

describe('readBrowserIdentity', () => {
  it("reads the default context's id (the same over every connection to one browser) and the pages", async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('about:blank');
    let connections = 0;
    // Chromium gives the browser target a new id per connection: it must not be what identifies the browser.
    browser.responders.set('Target.getTargetInfo', () => ({
      targetInfo: {
        targetId: `per-connection-${++connections}`,
        type: 'browser',
        title: '',
        url: '',
        attached: true,
        canAccessOpener: false,
      },
    }));
    browser.responders.set('Target.getBrowserContexts', () => ({
      browserContextIds: [],
      defaultBrowserContextId: 'CONTEXT-1',
    }));
    const found = await readBrowserIdentity(new CdpConnection(browser.transport));
    expect(found).toEqual({ browserId: 'CONTEXT-1', targetType: 'browser', pageIds: [page.targetId] });
    const again = await readBrowserIdentity(new CdpConnection(browser.reopen()));
    expect(again.browserId).toBe('CONTEXT-1');
  });

  it('names a page endpoint by its type and gives it no browser id', async () => {
    const browser = new FakeBrowser();
    browser.responders.set('Target.getTargetInfo', () => ({
      targetInfo: {
        targetId: 'PAGE1',
        type: 'page',
        title: '',
        url: 'about:blank',
        attached: true,
        canAccessOpener: false,
      },
    }));
    const found = await readBrowserIdentity(new CdpConnection(browser.transport));
    expect(found.targetType).toBe('page');
    expect(found.browserId).toBeUndefined();
  });

  it('answers with what it could learn when the calls are refused', async () => {
    const browser = new FakeBrowser();
    browser.responders.set('Target.getTargetInfo', () => {
      throw new Error('Not allowed');
    });
    browser.responders.set('Target.getTargets', () => {
      throw new Error('Not allowed');
    });
    browser.responders.set('Target.getBrowserContexts', () => {
      throw new Error('Not allowed');
    });
    expect(await readBrowserIdentity(new CdpConnection(browser.transport))).toEqual({
      browserId: undefined,
      targetType: undefined,
      pageIds: [],
    });
  });
});

describe('isSameBrowser', () => {
  it('decides by the browser ids when both are known, whatever the pages', () => {
    expect(isSameBrowser(identity('a', ['P1']), identity('a', []), ['P1'])).toBe(true);
    // Same build, same flags, same pages' urls: still another browser process.
    expect(isSameBrowser(identity('a', ['P1']), identity('b', ['P1']), ['P1'])).toBe(false);
  });

  it('falls back to the pages tabpilot had: none of them left means another browser', () => {
    expect(isSameBrowser(identity(undefined), identity(undefined, ['P9']), ['P1', 'P2'])).toBe(false);
    expect(isSameBrowser(identity(undefined), identity(undefined, ['P2', 'P9']), ['P1', 'P2'])).toBe(true);
  });

  it('claims nothing with nothing to go on', () => {
    expect(isSameBrowser(identity(undefined), identity(undefined, ['P9']), [])).toBeUndefined();
  });
});
