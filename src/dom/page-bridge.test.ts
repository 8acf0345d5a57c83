import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../test/fakes/fake-browser';
import { CdpConnection } from '../cdp/connection';
import { SessionManager } from '../cdp/session-manager';
import { PAGE_GLOBAL, PAGE_VERSION } from './generated/page-source';
import type { PerceptionHandleFunctions, PerceptionValueFunctions } from './payload';
import { documentStartSource, forgetWorld, FrameWorld, pageFunctions, WORLD_NAME, worldCount } from './page-bridge';

const PAGE = pageFunctions<PerceptionValueFunctions, PerceptionHandleFunctions>();

/** A world's global with the bundle of this version installed, which records the calls made in it. */
function installedWorld(top: boolean) {
  const calls: unknown[][] = [];
  const world: Record<string, unknown> = {
    [PAGE_GLOBAL]: { version: PAGE_VERSION, probe: (...args: unknown[]) => calls.push(args) },
  };
  // In a frame, `window` is the world's global and `window.top` the top frame's window.
  world['window'] = world;
  world['top'] = top ? world : {};
  return { world, calls };
}

async function twoPages() {
  const browser = new FakeBrowser();
  const a = browser.addPage('https://a.test/');
  const b = browser.addPage('https://b.test/');
  const targets = new SessionManager({ attachTimeoutMs: 1000 });
  await targets.start(new CdpConnection(browser.transport));
  let contexts = 0;
  browser.responders.set('Page.createIsolatedWorld', () => ({ executionContextId: ++contexts }));
  browser.responders.set('Runtime.callFunctionOn', () => ({ result: { type: 'object', value: { indexed: 0 } } }));
  const created = () => browser.sent.filter((message) => message.method === 'Page.createIsolatedWorld');
  return { browser, targets, a: targets.requireSession(a.targetId), b: targets.requireSession(b.targetId), created };
}

describe('page bridge', () => {
  it('keeps one world per frame session, owned by the session, and asks for it again once forgotten', async () => {
    const { targets, a, b, created } = await twoPages();
    await PAGE.callInFrame(a, 'retention');
    await PAGE.callInFrame(a, 'retention');
    expect(created()).toHaveLength(1);
    expect(created()[0]?.params).toMatchObject({ worldName: WORLD_NAME });
    expect(a.own(FrameWorld)).toBe(a.own(FrameWorld));
    expect(a.own(FrameWorld)).not.toBe(b.own(FrameWorld));
    expect(worldCount([a, b])).toBe(1);
    await PAGE.callInFrame(b, 'retention');
    expect(worldCount([a, b])).toBe(2);
    forgetWorld(a);
    expect(worldCount([a, b])).toBe(1);
    await PAGE.callInFrame(a, 'retention');
    expect(created()).toHaveLength(3);
    // A session that went counts no world, whatever it held.
    a.markDetached('test');
    expect(worldCount([a, b])).toBe(1);
    targets.stop('test');
  });

  it('makes a world once for callers at once (each making would give it a token of its own)', async () => {
    const { targets, a, created } = await twoPages();
    await Promise.all([PAGE.callInFrame(a, 'retention'), PAGE.callInFrame(a, 'retention')]);
    expect(created()).toHaveLength(1);
    targets.stop('test');
  });

  it('adds a start-of-document call in the one world, answering its identifier', async () => {
    const { a, targets, browser } = await twoPages();
    browser.responders.set('Page.addScriptToEvaluateOnNewDocument', () => ({ identifier: 'script-1' }));
    expect(await PAGE.atDocumentStart(a, 'top', 'retention')).toBe('script-1');
    const added = browser.sent.find((message) => message.method === 'Page.addScriptToEvaluateOnNewDocument');
    expect(added?.params).toEqual({ source: documentStartSource('top', 'retention', []), worldName: WORLD_NAME });
    targets.stop('test');
  });

  it('runs a start-of-document call with its arguments as data, in the top frame only when asked', () => {
    const args = ['it\'s "quoted" </script> \u2028', { n: 1, list: [null, true] }];
    const top = installedWorld(true);
    runInNewContext(documentStartSource('top', 'probe', args), top.world);
    expect(top.calls).toEqual([args]);
    const child = installedWorld(false);
    runInNewContext(documentStartSource('top', 'probe', args), child.world);
    expect(child.calls).toEqual([]);
    runInNewContext(documentStartSource('all', 'probe', args), child.world);
    expect(child.calls).toEqual([args]);
  });

  it('leaves a bundle of this version where it is installed already (its modules keep their state)', () => {
    const { world, calls } = installedWorld(true);
    const installed = world[PAGE_GLOBAL];
    runInNewContext(documentStartSource('top', 'probe', [1]), world);
    expect(world[PAGE_GLOBAL]).toBe(installed);
    expect(calls).toEqual([[1]]);
  });
});
