import { describe, expect, it } from 'vitest';
import { parseFlow } from '../../../protocol/flow';
import { TabpilotError } from '../../../shared/errors';
import { FlowLibrary, KEPT_FLOWS_KEY, MAX_KEPT_FLOWS, type FlowStorage } from './flow-library';

function memoryStorage(): FlowStorage & { values: Map<string, unknown>; changes: number } {
  const listeners = new Set<() => void>();
  const store = {
    values: new Map<string, unknown>(),
    changes: 0,
    get: (key: string) => Promise.resolve(store.values.get(key)),
    set: (key: string, value: unknown) => {
      store.values.set(key, structuredClone(value));
      store.changes += 1;
      listeners.forEach((listener) => listener());
      return Promise.resolve();
    },
    watch: (_key: string, listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return store;
}

const flow = (name: string): unknown => ({
  format: 'tabpilot-flow',
  version: 1,
  name,
  steps: [{ action: 'navigate', url: 'http://127.0.0.1/' }],
});

async function refusal(promise: Promise<unknown>): Promise<TabpilotError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TabpilotError) {
      return error;
    }
    throw error;
  }
  throw new Error('accepted');
}

describe('the flows the panel keeps', () => {
  it('keeps flows newest first, with when and how each came', async () => {
    const storage = memoryStorage();
    let clock = Date.parse('2026-12-05T04:00:00Z');
    const library = new FlowLibrary(storage, () => new Date((clock += 60_000)));
    await library.add(flow('First'), 'recorded');
    await library.add(flow('Second'), 'imported');
    const kept = await library.list();
    expect(kept.map((entry) => [entry.flow.name, entry.source, entry.kept_at])).toEqual([
      ['Second', 'imported', '2026-12-05T04:02:00.000Z'],
      ['First', 'recorded', '2026-12-05T04:01:00.000Z'],
    ]);
    expect(new Set(kept.map((entry) => entry.id)).size).toBe(2);
  });

  it('refuses what is not a flow and keeps what it had', async () => {
    const storage = memoryStorage();
    const library = new FlowLibrary(storage);
    await library.add(flow('Kept'), 'imported');
    expect(await refusal(library.add({ format: 'tabpilot-flow', version: 2 }, 'imported'))).toMatchObject({
      code: 'INVALID_PARAMS',
    });
    expect((await library.list()).map((entry) => entry.flow.name)).toEqual(['Kept']);
  });

  it(`keeps at most ${MAX_KEPT_FLOWS}, refusing one more rather than dropping one`, async () => {
    const library = new FlowLibrary(memoryStorage());
    for (let i = 0; i < MAX_KEPT_FLOWS; i++) {
      await library.add(flow(`Flow ${i}`), 'recorded');
    }
    expect(await refusal(library.add(flow('One more'), 'recorded'))).toMatchObject({
      code: 'INVALID_PARAMS',
      message: /keeps 50 flows/,
    });
    expect(await library.list()).toHaveLength(MAX_KEPT_FLOWS);
  });

  it('updates and removes by id, each write in turn, and says when a flow is gone', async () => {
    const storage = memoryStorage();
    const library = new FlowLibrary(storage);
    const a = await library.add(flow('A'), 'recorded');
    const b = await library.add(flow('B'), 'recorded');
    await Promise.all([
      library.update(a.id, parseFlow(flow('A renamed'))),
      library.update(b.id, parseFlow(flow('B renamed'))),
    ]);
    expect((await library.list()).map((entry) => entry.flow.name)).toEqual(['B renamed', 'A renamed']);
    await library.remove(a.id);
    expect((await library.list()).map((entry) => entry.id)).toEqual([b.id]);
    expect(await refusal(library.update(a.id, parseFlow(flow('A'))))).toMatchObject({ code: 'ELEMENT_NOT_FOUND' });
  });

  it('lists around an entry that no longer reads as a flow, and keeps it', async () => {
    const storage = memoryStorage();
    storage.values.set(KEPT_FLOWS_KEY, [{ id: 'old', kept_at: 'x', source: 'recorded', flow: { version: 9 } }]);
    const library = new FlowLibrary(storage);
    await library.add(flow('New'), 'recorded');
    expect((await library.list()).map((entry) => entry.flow.name)).toEqual(['New']);
    expect(storage.values.get(KEPT_FLOWS_KEY)).toHaveLength(2);
  });

  it('tells a watcher when the kept flows change', async () => {
    const storage = memoryStorage();
    const library = new FlowLibrary(storage);
    let told = 0;
    const stop = library.watch(() => (told += 1));
    await library.add(flow('A'), 'recorded');
    stop();
    await library.add(flow('B'), 'recorded');
    expect(told).toBe(1);
  });
});
