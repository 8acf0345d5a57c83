import { describe, expect, it } from 'vitest';
import { startedFakeSession } from '../../test/fakes/fake-session';
import { TabpilotError } from '../shared/errors';
import { createDefaultRegistry } from './actions';
import { ClientGate } from './client-gate';
import { ClientLeases } from './client-leases';
import { CommandServer } from './command-server';
import type { PersonQuestionText } from './person-powers';
import { servedConfig } from '../../test/fakes/served-config';

async function setup(answer: 'allow' | 'refuse') {
  const { session } = await startedFakeSession({});
  const registry = createDefaultRegistry();
  const server = new CommandServer(session, registry, servedConfig);
  const asked: PersonQuestionText[] = [];
  const gate = new ClientGate(session, registry, {
    leases: new ClientLeases(),
    person: {
      ask: (question) => {
        asked.push(question);
        return answer === 'allow'
          ? Promise.resolve()
          : Promise.reject(new TabpilotError('FORBIDDEN', `${question.action}: the person refused it`));
      },
    },
  });
  gate.install();
  server.useGate(gate);
  const connect = (name: string, kind: 'native' | 'mcp' | 'panel') => {
    const connection = server.connect({ id: name, kind }, { send: () => undefined });
    return (action: string, params: Record<string, unknown> = {}) => connection.handle({ id: 1, action, params });
  };
  const harEvents = () => session.bus.history().filter((view) => view.type === 'StartHarRecordingEvent');
  return { asked, connect, harEvents };
}

describe('the person’s powers at the gate', () => {
  it('a program’s start_har is asked, naming the client and what; refused, nothing reaches the bus', async () => {
    const { asked, connect, harEvents } = await setup('refuse');
    const refused = await connect('mcp:alpha', 'mcp')('start_har', { file_name: 'x.har' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(asked).toEqual([
      expect.objectContaining({
        client: 'mcp:alpha',
        action: 'start_har',
        what: expect.stringContaining('record the network traffic of every controlled tab') as unknown,
      }),
    ]);
    expect(asked[0]?.what).toContain('x.har');
    expect(harEvents()).toEqual([]);
  });

  it('the person’s own start_har is not asked', async () => {
    const { asked, connect, harEvents } = await setup('refuse');
    await connect('sidepanel', 'panel')('start_har', { file_name: 'y.har' });
    expect(asked).toEqual([]);
    expect(harEvents()).toHaveLength(1);
  });

  it('a program with no site open in its tabs may not export cookies, and is not even asked', async () => {
    const { asked, connect } = await setup('allow');
    const refused = await connect('tabpilot', 'native')('save_storage_state', { path: 'state.json' });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'FORBIDDEN',
        message: expect.stringContaining('only the cookies and storage of the sites open in its own tabs') as unknown,
      },
    });
    expect(asked).toEqual([]);
  });
});
