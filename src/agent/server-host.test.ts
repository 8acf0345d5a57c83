import { describe, expect, it } from 'vitest';
import { startedFakeSession } from '../../test/fakes/fake-session';
import { createDefaultRegistry } from '../tools/actions';
import { CommandServer } from '../tools/command-server';
import { serverHost } from './server-host';
import { SERVED_CONFIG } from './tabpilot-config';

const SECRET = 'hunter2-pass';

async function hostOverServer() {
  const { session } = await startedFakeSession({ config: { sensitive_data: { '*': { password: SECRET } } } });
  const server = new CommandServer(session, createDefaultRegistry(), SERVED_CONFIG);
  return { server, host: serverHost(server, 'run-9') };
}

describe('serverHost: the agent as a client of its own connection', () => {
  it('gets its actions’ answers masked by the connection, as every client does', async () => {
    const { host } = await hostOverServer();
    const answer = (await host.runAction('navigate', { url: `http://a.test/?pw=${SECRET}` })) as { url: string };
    expect(answer.url).toBe('http://a.test/?pw=<secret>password</secret>');
  });

  it('throws a refused request’s error with its code and its message masked', async () => {
    const { host } = await hostOverServer();
    const refused = host.runAction('switch', { tab_id: SECRET });
    await expect(refused).rejects.toMatchObject({ name: 'TabpilotError', code: 'TAB_NOT_FOUND' });
    await expect(refused).rejects.toSatisfy(
      (error: Error) => error.message.includes('<secret>password</secret>') && !error.message.includes(SECRET),
    );
  });

  it('reaches only the registry’s actions, not the server’s own (subscribe, describe, cancel)', async () => {
    const { host } = await hostOverServer();
    for (const name of ['subscribe', 'describe', 'cancel']) {
      await expect(host.runAction(name, { events: ['*'] })).rejects.toMatchObject({
        code: 'UNKNOWN_ACTION',
        details: { action: name },
      });
    }
  });

  it('refuses params that are no object with INVALID_PARAMS, and takes absent ones as none', async () => {
    const { host } = await hostOverServer();
    await expect(host.runAction('tabs', [1, 2])).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    await expect(host.runAction('tabs', 'all')).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    await expect(host.runAction('tabs', null)).resolves.toMatchObject({ tabs: expect.any(Array) });
  });

  it('has its queued requests answered CANCELLED by the emergency stop, like every client’s', async () => {
    const { server, host } = await hostOverServer();
    const waiting = host.runAction('wait', { seconds: 1 });
    const queued = host.runAction('tabs', {});
    // The wait takes its turn at once; the tabs after it waits for it.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.cancelQueuedRequests()).toBe(1);
    await expect(queued).rejects.toMatchObject({ code: 'CANCELLED' });
    await waiting;
  });

  it('opens its connection again after close, for a follow-up run', async () => {
    const { host } = await hostOverServer();
    await host.runAction('tabs', {});
    host.close();
    await expect(host.runAction('tabs', {})).resolves.toMatchObject({ tabs: expect.any(Array) });
  });
});
