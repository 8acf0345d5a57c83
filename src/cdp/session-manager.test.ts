import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../test/fakes/fake-browser';
import { CdpConnection } from './connection';
import { createDeferred } from '../shared/deferred';
import { SessionManager, type SessionManagerEvent } from './session-manager';

async function started(browser: FakeBrowser): Promise<{ manager: SessionManager; events: SessionManagerEvent[] }> {
  const manager = new SessionManager({ attachTimeoutMs: 1000 });
  const events: SessionManagerEvent[] = [];
  manager.observe((event) => events.push(event));
  await manager.start(new CdpConnection(browser.transport));
  return { manager, events };
}

const tick = (ms = 10): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('SessionManager', () => {
  it('auto-attaches existing pages with flatten and focuses one', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('http://a.test/');
    const { manager } = await started(browser);
    expect(manager.pages().map((p) => p.targetId)).toEqual([page.targetId]);
    expect(manager.focusedTargetId).toBe(page.targetId);
    const autoAttach = browser.sent.find((m) => m.method === 'Target.setAutoAttach' && m.sessionId === undefined);
    expect(autoAttach?.params).toMatchObject({ autoAttach: true, flatten: true });
  });

  it('opens a blank page for focus when it owns a browser with no pages', async () => {
    const browser = new FakeBrowser();
    const { manager } = await started(browser);
    expect(manager.pages()).toHaveLength(1);
    expect(manager.pages()[0]?.url).toBe('about:blank');
    expect(manager.focusedTargetId).toBe(manager.pages()[0]?.targetId);
  });

  it('leaves focus empty when it does not own the browser and has no tabs', async () => {
    const browser = new FakeBrowser({ ownsBrowser: false });
    const { manager } = await started(browser);
    expect(manager.focusedTargetId).toBeUndefined();
    await expect(manager.focusedSession()).rejects.toMatchObject({ code: 'NOT_ATTACHED' });
  });

  it('maps targets and sessions both ways and resumes targets paused at start', async () => {
    const browser = new FakeBrowser();
    browser.addPage('http://a.test/');
    const { manager, events } = await started(browser);
    const popup = browser.addPage('http://a.test/popup');
    await manager.waitForPage(popup.targetId);
    const session = manager.requireSession(popup.targetId);
    expect(manager.targetOfSession(session.sessionId)?.targetId).toBe(popup.targetId);
    expect(manager.sessionIdsOf(popup.targetId)).toEqual([session.sessionId]);
    const resumed = browser.sent.filter(
      (m) => m.method === 'Runtime.runIfWaitingForDebugger' && m.sessionId === session.sessionId,
    );
    expect(resumed).toHaveLength(1);
    expect(events.some((e) => e.type === 'targetAdded' && e.target.targetId === popup.targetId && !e.restored)).toBe(
      true,
    );
  });

  it("waits for a page's frame whose session is still being set up, and gives up at its bound", async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('http://a.test/');
    const { manager } = await started(browser);
    const held = createDeferred<undefined>();
    manager.addSessionSetup(async (_session, target) => {
      if (target.type === 'iframe') {
        await held.promise;
      }
    });
    const frame = browser.addChild(page, 'iframe', 'http://b.test/frame');
    await tick();
    // Known (it is held until its setup ran) but not ready: a look into the page's frames waits for it.
    expect(manager.childrenOf(page.targetId).map((t) => t.targetId)).toEqual([frame.targetId]);
    expect(manager.sessionFor(frame.targetId)).toBeUndefined();
    let waited = false;
    const ready = manager.framesReady(page.targetId).then(() => (waited = true));
    await tick();
    expect(waited).toBe(false);
    held.resolve(undefined);
    await ready;
    expect(manager.sessionFor(frame.targetId)).toBeDefined();
    // A frame that never gets ready holds the look only for the bound.
    const other = createDeferred<undefined>();
    manager.addSessionSetup(async (_session, target) => {
      if (target.type === 'iframe' && target.targetId !== frame.targetId) {
        await other.promise;
      }
    });
    browser.addChild(page, 'iframe', 'http://c.test/frame');
    await tick();
    const from = Date.now();
    await manager.framesReady(page.targetId, 100);
    expect(Date.now() - from).toBeGreaterThanOrEqual(90);
    other.resolve(undefined);
  });

  it('gives an out-of-process iframe its own child session under its page', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('http://a.test/');
    const { manager, events } = await started(browser);
    const frame = browser.addChild(page, 'iframe', 'http://b.test/frame');
    await tick();
    const child = manager.sessionFor(frame.targetId);
    expect(child).toBeDefined();
    expect(manager.childrenOf(page.targetId).map((t) => t.targetId)).toEqual([frame.targetId]);
    expect(events.some((e) => e.type === 'childAttached' && e.target.targetId === frame.targetId)).toBe(true);
    const childAutoAttach = browser.sent.find(
      (m) => m.method === 'Target.setAutoAttach' && m.sessionId === child?.sessionId,
    );
    expect(childAutoAttach).toBeDefined();
  });

  it('keeps a lifecycle buffer per page target', async () => {
    const browser = new FakeBrowser();
    const a = browser.addPage('http://a.test/');
    const b = browser.addPage('http://b.test/');
    const { manager } = await started(browser);
    await manager.requireSession(a.targetId).send('Page.navigate', { url: 'http://a.test/next' });
    await tick();
    expect(manager.lifecycle(a.targetId)?.names()).toContain('load');
    expect(manager.lifecycle(b.targetId)?.names()).toEqual([]);
  });

  it('recovers focus to another page when the focused one closes', async () => {
    const browser = new FakeBrowser();
    const a = browser.addPage('http://a.test/');
    const b = browser.addPage('http://b.test/');
    const { manager, events } = await started(browser);
    manager.setFocus(b.targetId);
    browser.removeTarget(b.targetId);
    await tick();
    await manager.settled();
    expect(manager.focusedTargetId).toBe(a.targetId);
    expect(
      events.filter((e) => e.type === 'targetRemoved').map((e) => e.type === 'targetRemoved' && e.target.targetId),
    ).toEqual([b.targetId]);
  });

  it('opens a blank page when the last page closes and it owns the browser', async () => {
    const browser = new FakeBrowser();
    const a = browser.addPage('http://a.test/');
    const { manager } = await started(browser);
    browser.removeTarget(a.targetId);
    await tick();
    await manager.settled();
    const focus = manager.focusedTargetId;
    expect(focus).toBeDefined();
    expect(focus).not.toBe(a.targetId);
    expect(manager.target(focus ?? '')?.url).toBe('about:blank');
  });

  it('drops focus (NOT_ATTACHED) when the last controlled tab closes and it does not own the browser', async () => {
    const browser = new FakeBrowser({ ownsBrowser: false });
    const a = browser.addPage('http://a.test/');
    const { manager } = await started(browser);
    expect(manager.focusedTargetId).toBe(a.targetId);
    browser.removeTarget(a.targetId);
    await tick();
    await manager.settled();
    expect(manager.focusedTargetId).toBeUndefined();
    expect(browser.sentMethods()).not.toContain('Target.createTarget');
  });

  it('keeps subscriptions and session setups across a reconnect and restores focus', async () => {
    const browser = new FakeBrowser();
    const a = browser.addPage('http://a.test/');
    const b = browser.addPage('http://b.test/');
    const { manager, events } = await started(browser);
    manager.setFocus(a.targetId);
    const setups: string[] = [];
    manager.addSessionSetup(async (session) => {
      setups.push(session.sessionId);
      await session.send('Network.enable');
    });
    const heard: string[] = [];
    manager.on('Page.frameNavigated', (params, source) => heard.push(`${source.target?.targetId}:${params.frame.url}`));
    const before = setups.length;
    browser.drop();
    await tick();
    expect(manager.connected).toBe(false);
    await manager.start(new CdpConnection(browser.reopen()));
    expect(manager.focusedTargetId).toBe(a.targetId);
    expect(setups.length).toBe(before + 2);
    expect(browser.sent.filter((m) => m.method === 'Network.enable')).toHaveLength(2);
    await manager.requireSession(b.targetId).send('Page.navigate', { url: 'http://b.test/after' });
    await tick();
    expect(heard).toContain(`${b.targetId}:http://b.test/after`);
    const added = events.filter((e) => e.type === 'targetAdded');
    expect(added.filter((e) => e.type === 'targetAdded' && e.restored)).toHaveLength(2);
  });

  it('rejects calls pending on a session whose target detaches', async () => {
    const browser = new FakeBrowser();
    const a = browser.addPage('http://a.test/');
    const b = browser.addPage('http://b.test/');
    const { manager } = await started(browser);
    browser.silent.add('Runtime.evaluate');
    const call = manager.requireSession(b.targetId).send('Runtime.evaluate', { expression: '1' });
    browser.removeTarget(b.targetId);
    await expect(call).rejects.toMatchObject({ code: 'TAB_NOT_FOUND' });
    expect(manager.sessionFor(a.targetId)).toBeDefined();
  });

  it('keeps a target attached aside: its session answers, and the tracker neither drives nor lets it go', async () => {
    const browser = new FakeBrowser();
    browser.addPage('http://a.test/');
    const worker = browser.addServiceWorker('chrome-extension://guard/worker.js');
    const { manager, events } = await started(browser);
    const session = await manager.attachAside(worker.targetId);
    expect(await session.send('Runtime.evaluate', { expression: '1' })).toBeDefined();
    await tick();
    const detaches = browser.transport.sent.filter((m) => m.method === 'Target.detachFromTarget');
    expect(detaches.map((m) => m.params)).not.toContainEqual({ sessionId: session.sessionId });
    expect(manager.pages().map((p) => p.targetId)).not.toContain(worker.targetId);
    expect(events.some((e) => 'target' in e && e.target.targetId === worker.targetId)).toBe(false);
  });
});

describe('SessionManager across reconnects and stops', () => {
  const removed = (events: SessionManagerEvent[]): string[] =>
    events.flatMap((event) => (event.type === 'targetRemoved' ? [event.target.targetId] : []));
  const added = (events: SessionManagerEvent[]): Array<{ targetId: string; restored: boolean }> =>
    events.flatMap((event) =>
      event.type === 'targetAdded' ? [{ targetId: event.target.targetId, restored: event.restored }] : [],
    );

  it('announces, once, a page that closed while the connection was down, and moves focus off it', async () => {
    const browser = new FakeBrowser();
    const a = browser.addPage('http://a.test/');
    const b = browser.addPage('http://b.test/');
    const { manager, events } = await started(browser);
    manager.setFocus(b.targetId);
    browser.drop();
    await tick();
    // Closed during the gap: no event can tell the manager (the socket is down).
    browser.removeTarget(b.targetId);
    events.length = 0;
    await manager.start(new CdpConnection(browser.reopen()));
    await manager.settled();
    expect(removed(events)).toEqual([b.targetId]);
    expect(added(events)).toEqual([{ targetId: a.targetId, restored: true }]);
    expect(manager.target(b.targetId)).toBeUndefined();
    expect(manager.focusedTargetId).toBe(a.targetId);
    // A second reconnect does not announce it again.
    browser.drop();
    await tick();
    await manager.start(new CdpConnection(browser.reopen()));
    expect(removed(events)).toEqual([b.targetId]);
  });

  it('forgets the pages on stop: the next start announces what it finds as new, and nothing as closed', async () => {
    const browser = new FakeBrowser();
    const a = browser.addPage('http://a.test/');
    const b = browser.addPage('http://b.test/');
    const { manager, events } = await started(browser);
    manager.stop('released');
    expect(manager.focusedTargetId).toBeUndefined();
    expect(manager.pages()).toEqual([]);
    // Closed after the stop: not ours to announce, since tabpilot had let go of it.
    browser.removeTarget(b.targetId);
    events.length = 0;
    await manager.start(new CdpConnection(browser.reopen()));
    expect(added(events)).toEqual([{ targetId: a.targetId, restored: false }]);
    expect(removed(events)).toEqual([]);
  });

  it('treats every session of a closed connection as detached: no session is handed out, calls fail at once', async () => {
    const browser = new FakeBrowser();
    const a = browser.addPage('http://a.test/');
    const { manager } = await started(browser);
    const session = manager.requireSession(a.targetId);
    browser.drop();
    await tick();
    expect(session.detached).toBe(true);
    expect(manager.sessionFor(a.targetId)).toBeUndefined();
    expect(manager.sessionForId(session.sessionId)).toBeUndefined();
    expect(() => manager.requireSession(a.targetId)).toThrow(expect.objectContaining({ code: 'TAB_NOT_FOUND' }));
    expect(() => manager.root).toThrow(expect.objectContaining({ code: 'DISCONNECTED' }));
    await expect(session.send('Runtime.evaluate', { expression: '1' })).rejects.toThrow(/closed/i);
  });

  it('refuses focus on anything but a controlled page with a ready session', async () => {
    const browser = new FakeBrowser();
    const a = browser.addPage('http://a.test/');
    const { manager } = await started(browser);
    const frame = browser.addChild(a, 'iframe', 'http://b.test/frame');
    await tick();
    expect(manager.sessionFor(frame.targetId)).toBeDefined();
    // A page whose session setup never finishes (its renderer does not answer) is not ready.
    browser.silent.add('Inspector.enable');
    const stuck = browser.addPage('http://stuck.test/');
    await tick();
    expect(manager.target(stuck.targetId)).toBeDefined();
    for (const targetId of ['NO-SUCH-TARGET', frame.targetId, stuck.targetId]) {
      expect(() => manager.setFocus(targetId), targetId).toThrow(
        expect.objectContaining({ code: 'TAB_NOT_FOUND', details: { target_id: targetId } }),
      );
    }
    expect(manager.focusedTargetId).toBe(a.targetId);
  });
});
