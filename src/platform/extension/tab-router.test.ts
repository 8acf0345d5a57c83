import { describe, expect, it, vi } from 'vitest';
import { FakeChrome } from '../../../test/fakes/fake-chrome';
import { CdpConnection } from '../../cdp/connection';
import { SessionManager, type SessionManagerEvent } from '../../cdp/session-manager';
import { DebuggerTransport } from './debugger-transport';
import { attachRefusalCode } from './attach-refusal';
import { UnattachableTabError } from './router-errors';
import { CANCEL_HOLD } from './client-hold';
import { TabRouter } from './tab-router';

const tick = (ms = 20): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function setup(chrome = new FakeChrome(), hooks: ConstructorParameters<typeof TabRouter>[1] = {}) {
  const router = new TabRouter(chrome, hooks);
  router.install();
  const manager = new SessionManager({ attachTimeoutMs: 1000 });
  const events: SessionManagerEvent[] = [];
  manager.observe((event) => events.push(event));
  const transport = new DebuggerTransport(router);
  const connection = new CdpConnection(transport, { timeoutMs: 2000 });
  await manager.start(connection);
  return { chrome, router, manager, events, connection, transport };
}

describe('TabRouter over a fake chrome', () => {
  it('starts with no targets and never touches tabs it was not given', async () => {
    const chrome = new FakeChrome();
    chrome.addTab('https://mail.example/', { active: true });
    const { manager } = await setup(chrome);
    expect(manager.pages()).toEqual([]);
    expect(manager.focusedTargetId).toBeUndefined();
    expect(chrome.attachedTabs.size).toBe(0);
  });

  it('attaches a given tab and announces it as a page target with a synthetic session', async () => {
    const { chrome, router, manager } = await setup();
    const tab = chrome.addTab('https://a.example/');
    const targetId = await router.attachTab(tab.id);
    expect(targetId).toBe(tab.targetId);
    const page = await manager.waitForPage(targetId);
    expect(page.url).toBe('https://a.example/');
    const session = manager.requireSession(targetId);
    expect(session.sessionId).toMatch(/^tabpilot-tab-/);
    await session.send('Runtime.evaluate', { expression: '1' });
    const sent = chrome.sentCommands.find((c) => c.method === 'Runtime.evaluate');
    expect(sent?.target).toEqual({ tabId: tab.id });
  });

  it('routes child (OOPIF) sessions as {tabId, sessionId}', async () => {
    const { chrome, router, manager } = await setup();
    const tab = chrome.addTab('https://a.example/');
    await manager.waitForPage(await router.attachTab(tab.id));
    chrome.event(tab.id, 'Target.attachedToTarget', {
      sessionId: 'CHILD1',
      targetInfo: {
        targetId: 'FRAME1',
        type: 'iframe',
        url: 'https://b.example/',
        title: '',
        attached: true,
        canAccessOpener: false,
      },
      waitingForDebugger: true,
    });
    await tick();
    const child = manager.sessionFor('FRAME1');
    expect(child?.sessionId).toBe('CHILD1');
    await child?.send('Runtime.evaluate', { expression: '2' });
    expect(chrome.sentCommands.filter((c) => c.method === 'Runtime.evaluate').at(-1)?.target).toEqual({
      tabId: tab.id,
      sessionId: 'CHILD1',
    });
    expect(
      chrome.sentCommands.some(
        (c) => c.method === 'Runtime.runIfWaitingForDebugger' && c.target.sessionId === 'CHILD1',
      ),
    ).toBe(true);
  });

  it('answers Browser.getVersion locally and refuses the rest of the Browser domain as unsupported', async () => {
    const { manager } = await setup();
    expect((await manager.root.send('Browser.getVersion')).product).toBe('HeadlessChrome/156.0.8078.108');
    await expect(manager.root.send('Browser.grantPermissions', { permissions: [] })).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
  });

  it('emulates createTarget, activateTarget and closeTarget with chrome.tabs', async () => {
    const { chrome, manager } = await setup();
    const page = await manager.createPage('https://new.example/');
    const tab = [...chrome.tabsById.values()].find((t) => t.targetId === page.targetId);
    expect(tab?.url).toBe('https://new.example/');
    await manager.root.send('Target.activateTarget', { targetId: page.targetId });
    expect(chrome.tabsById.get(tab?.id ?? -1)?.active).toBe(true);
    await manager.closeTarget(page.targetId);
    await tick();
    expect(manager.target(page.targetId)).toBeUndefined();
    expect(chrome.tabsById.has(tab?.id ?? -1)).toBe(false);
  });

  it('takes control of tabs that a controlled tab opens, not of others', async () => {
    const { chrome, router, manager } = await setup();
    const tab = chrome.addTab('https://a.example/', { active: true });
    await router.attachTab(tab.id);
    const popup = chrome.addTab('https://a.example/popup', { openedBy: tab.id });
    // A tab the person opens (Ctrl+T) while the controlled tab is active: Chrome gives it that tab as its
    // openerTabId, but no page opened it.
    const stranger = chrome.addTab('https://other.example/', { active: true });
    await manager.waitForPage(popup.targetId);
    expect(manager.pages().map((p) => p.targetId)).toEqual([tab.targetId, popup.targetId]);
    expect(chrome.attachedTabs.has(stranger.id)).toBe(false);
  });

  it('drops every tab on canceled_by_user, reports it once and never re-attaches', async () => {
    const onUserCancel = vi.fn();
    const { chrome, router, manager } = await setup(new FakeChrome(), { onUserCancel });
    const a = chrome.addTab('https://a.example/');
    const b = chrome.addTab('https://b.example/');
    await router.attachTab(a.id);
    await router.attachTab(b.id);
    await manager.waitForPage(b.targetId);
    chrome.cancelInfobar();
    await tick(400);
    expect(manager.pages()).toEqual([]);
    expect(onUserCancel).toHaveBeenCalledOnce();
    chrome.addTab('https://a.example/popup', { openedBy: a.id });
    await tick(400);
    expect(chrome.attachedTabs.size).toBe(0);
  });

  it('holds the clients after canceled_by_user: an attach does not lift the hold, only liftHold does', async () => {
    const onHoldChange = vi.fn();
    const { chrome, router, manager } = await setup(new FakeChrome(), { onHoldChange });
    const a = chrome.addTab('https://a.example/');
    await manager.waitForPage(await router.attachTab(a.id));
    expect(router.hold).toBeUndefined();
    chrome.cancelInfobar();
    await tick(400);
    expect(router.hold).toBe(CANCEL_HOLD);
    expect(onHoldChange).toHaveBeenCalledOnce();
    // The person attaching a tab again clears the Cancel's refusal to re-attach, not the hold on clients.
    await router.attachTab(a.id);
    expect(router.userCancelled).toBe(false);
    expect(router.hold).toBe(CANCEL_HOLD);
    router.holdClients('the person pressed Stop in the panel');
    expect(router.hold).toBe('the person pressed Stop in the panel');
    router.liftHold();
    expect(router.hold).toBeUndefined();
    expect(onHoldChange).toHaveBeenCalledTimes(3);
  });

  it("liftHold also ends a Cancel's refusal to re-attach, so opened tabs are adopted again", async () => {
    const { chrome, router } = await setup();
    const a = chrome.addTab('https://a.example/');
    await router.attachTab(a.id);
    chrome.cancelInfobar();
    await tick(400);
    expect(router.userCancelled).toBe(true);
    router.liftHold();
    expect(router.userCancelled).toBe(false);
    expect(router.hold).toBeUndefined();
  });

  it('re-verifies a tab after target_closed: re-attaches it without closing it for the session', async () => {
    const { chrome, router, manager, events } = await setup();
    const tab = chrome.addTab('https://a.example/');
    await manager.waitForPage(await router.attachTab(tab.id));
    chrome.attachedTabs.delete(tab.id);
    chrome.onDetach.fire({ tabId: tab.id }, 'target_closed');
    await tick(500);
    expect(chrome.attachedTabs.has(tab.id)).toBe(true);
    expect(manager.sessionFor(tab.targetId)).toBeDefined();
    expect(events.some((e) => e.type === 'targetRemoved')).toBe(false);
    expect(events.filter((e) => e.type === 'targetAdded')).toHaveLength(1);
  });

  it('drops a tab after target_closed when it now shows a page it may not touch', async () => {
    const { chrome, router, manager } = await setup();
    const tab = chrome.addTab('https://a.example/');
    await manager.waitForPage(await router.attachTab(tab.id));
    chrome.attachedTabs.delete(tab.id);
    const current = chrome.tabsById.get(tab.id);
    if (current !== undefined) {
      current.url = 'chrome://settings/';
    }
    chrome.onDetach.fire({ tabId: tab.id }, 'target_closed');
    await tick(500);
    expect(manager.target(tab.targetId)).toBeUndefined();
  });

  it('refuses chrome:// and other extensions pages with a clear error', async () => {
    const { chrome, router } = await setup();
    const settings = chrome.addTab('chrome://settings/');
    await expect(router.attachTab(settings.id)).rejects.toThrow(/cannot be controlled/);
    const other = chrome.addTab('chrome-extension://someoneelse/page.html');
    await expect(router.attachTab(other.id)).rejects.toThrow(/cannot be controlled/);
    expect(chrome.attachedTabs.size).toBe(0);
  });

  it("refuses tabpilot's own pages (the panel open as a tab), saying how to attach a web page instead", async () => {
    const { chrome, router, manager } = await setup();
    const panel = chrome.addTab(`${chrome.extensionOrigin}src/entries/extension/sidepanel.html`, { active: true });
    const refusal = router.attachTab(panel.id);
    await expect(refusal).rejects.toBeInstanceOf(UnattachableTabError);
    await expect(refusal).rejects.toMatchObject({ reason: 'own-page' });
    await expect(refusal).rejects.toThrow(/tabpilot's own page.*"tabs" with all, then "attach"/);
    expect(attachRefusalCode(await refusal.catch((error: unknown) => error))).toBe('FORBIDDEN');
    expect(chrome.attachedTabs.size).toBe(0);
    expect(manager.pages()).toEqual([]);
    const settings = chrome.addTab('chrome://settings/');
    expect(attachRefusalCode(await router.attachTab(settings.id).catch((error: unknown) => error))).toBe('UNSUPPORTED');
  });

  it('resumes after a worker restart by adopting still-attached tabs and resetting their children', async () => {
    const chrome = new FakeChrome();
    const first = await setup(chrome);
    const tab = chrome.addTab('https://a.example/');
    await first.router.attachTab(tab.id);
    const saved = first.router.snapshot();
    // The worker dies: no detach happens; chrome keeps the debugger attached.
    const router = new TabRouter(chrome);
    router.install();
    chrome.sentCommands.length = 0;
    await router.resume(saved);
    expect(
      chrome.sentCommands.some(
        (c) => c.method === 'Target.setAutoAttach' && (c.params as { autoAttach: boolean }).autoAttach === false,
      ),
    ).toBe(true);
    const manager = new SessionManager();
    await manager.start(new CdpConnection(new DebuggerTransport(router)));
    expect(manager.pages().map((p) => p.targetId)).toEqual([tab.targetId]);
  });

  it('detaches every tab when the transport closes (stop)', async () => {
    const { chrome, router, transport } = await setup();
    const tab = chrome.addTab('https://a.example/');
    await router.attachTab(tab.id);
    transport.close('stop');
    await tick();
    expect(chrome.attachedTabs.size).toBe(0);
    expect(router.controlled()).toEqual([]);
  });
});
