import { describe, expect, it, vi } from 'vitest';
import { FakeBrowser } from '../../test/fakes/fake-browser';
import { CdpConnection } from './connection';
import { CdpConnectionClosedError, CdpTargetClosedError, CdpTimeoutError, CdpUnsupportedError } from './errors';
import { CdpSession } from './session';

describe('CdpConnection', () => {
  it('gives each call its own id and routes the response back', async () => {
    const browser = new FakeBrowser();
    const connection = new CdpConnection(browser.transport);
    const root = new CdpSession(connection, '', 'browser');
    const [a, b] = await Promise.all([root.send('Browser.getVersion'), root.send('Browser.getVersion')]);
    expect(a.product).toBe('FakeChrome/1.0');
    expect(b.product).toBe('FakeChrome/1.0');
    const ids = browser.sent.map((message) => message.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('times out a call with the method and the caller stack', async () => {
    const browser = new FakeBrowser();
    browser.silent.add('Runtime.evaluate');
    const connection = new CdpConnection(browser.transport, { timeoutMs: 30 });
    const session = new CdpSession(connection, '', 'browser');
    async function callerFunctionName(): Promise<unknown> {
      return session.send('Runtime.evaluate', { expression: '1' });
    }
    const error = await callerFunctionName().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CdpTimeoutError);
    expect((error as Error).message).toContain('Runtime.evaluate');
    expect((error as Error).stack).toContain('callerFunctionName');
    expect(connection.pendingCount).toBe(0);
  });

  it('rejects everything pending when the transport closes, and later calls at once', async () => {
    const browser = new FakeBrowser();
    browser.silent.add('Runtime.evaluate');
    const connection = new CdpConnection(browser.transport);
    const session = new CdpSession(connection, '', 'browser');
    const pending = [
      session.send('Runtime.evaluate', { expression: '1' }),
      session.send('Runtime.evaluate', { expression: '2' }),
    ];
    browser.drop('socket dropped');
    for (const call of pending) {
      await expect(call).rejects.toBeInstanceOf(CdpConnectionClosedError);
    }
    await expect(session.send('Browser.getVersion')).rejects.toThrow(/socket dropped/);
    expect(connection.closed).toBe(true);
  });

  it('maps protocol errors to typed errors', async () => {
    const browser = new FakeBrowser();
    const connection = new CdpConnection(browser.transport);
    const session = new CdpSession(connection, 'nope', 'x');
    await expect(session.send('Runtime.evaluate', { expression: '1' })).rejects.toBeInstanceOf(CdpTargetClosedError);
    browser.responders.set('Browser.grantPermissions', () => {
      throw new Error("'Browser.grantPermissions' wasn't found");
    });
    const root = new CdpSession(connection, '', 'browser');
    await expect(root.send('Browser.grantPermissions', { permissions: [] })).rejects.toBeInstanceOf(
      CdpUnsupportedError,
    );
  });

  it('delivers events to every listener of a session and method, and waitFor cleans up', async () => {
    const browser = new FakeBrowser();
    const connection = new CdpConnection(browser.transport);
    const root = new CdpSession(connection, '', 'browser');
    const seen: string[] = [];
    root.on('Target.targetCreated', (params) => seen.push(`a:${params.targetInfo.url}`));
    const dispose = root.on('Target.targetCreated', (params) => seen.push(`b:${params.targetInfo.url}`));
    const waited = root.waitFor('Target.targetCreated', {
      timeoutMs: 1000,
      predicate: (p) => p.targetInfo.url === 'two',
    });
    await root.send('Target.setDiscoverTargets', { discover: true });
    browser.addPage('one');
    await new Promise((r) => setTimeout(r, 5));
    dispose();
    browser.addPage('two');
    expect((await waited).targetInfo.url).toBe('two');
    expect(seen).toEqual(['a:one', 'b:one', 'a:two']);
  });

  it('aborts a call through its signal', async () => {
    const browser = new FakeBrowser();
    browser.silent.add('Runtime.evaluate');
    const connection = new CdpConnection(browser.transport);
    const session = new CdpSession(connection, '', 'browser');
    const controller = new AbortController();
    const call = session.call('Runtime.evaluate', { expression: '1' }, { signal: controller.signal });
    controller.abort(new Error('stop now'));
    await expect(call).rejects.toThrow('stop now');
    expect(connection.pendingCount).toBe(0);
  });

  it('is idle only while none of its own calls is in flight; background calls (recording frames) do not count', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 1_000_000 });
    try {
      const browser = new FakeBrowser();
      browser.silent.add('Runtime.evaluate');
      const connection = new CdpConnection(browser.transport);
      const session = new CdpSession(connection, '', 'browser');
      expect(connection.idleMs).toBe(Number.POSITIVE_INFINITY);

      const controller = new AbortController();
      const command = session.call('Runtime.evaluate', { expression: '1' }, { signal: controller.signal });
      vi.setSystemTime(1_000_500);
      expect(connection.idleMs).toBe(0);
      controller.abort(new Error('done'));
      await expect(command).rejects.toThrow('done');
      vi.setSystemTime(1_000_600);
      expect(connection.idleMs).toBe(100);

      const frame = new AbortController();
      const shot = session.call('Runtime.evaluate', { expression: '2' }, { signal: frame.signal, background: true });
      await session.send('Browser.getVersion');
      vi.setSystemTime(1_000_700);
      expect(connection.pendingCount).toBe(1);
      expect(connection.idleMs).toBe(100);
      frame.abort(new Error('dropped'));
      await expect(shot).rejects.toThrow('dropped');
      expect(connection.idleMs).toBe(100);
    } finally {
      vi.useRealTimers();
    }
  });
});
