import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../../test/fakes/memory-store';
import { z } from 'zod';
import { defineEvent } from '../../protocol/define-event';
import { EventBus } from '../../bus/event-bus';
import type { TimelineEntry, TimelineEvent } from '../../protocol/panel-messages';
import { silentLogger } from '../../shared/logger';
import { secretsOf } from '../../shared/redact';
import { TimelineRecorder, type KeyValueStore, type TimelineUpdate } from './timeline-recorder';

const Outer = defineEvent('OuterTestEvent', { payload: { text: z.string() }, result: z.string(), timeoutMs: 1000 });
const Inner = defineEvent('InnerTestEvent', { payload: {}, result: z.void(), timeoutMs: 1000 });

const secrets = secretsOf({ '*': { password: 's3cret' } });

function recorder(store: KeyValueStore, capacity?: number, maxBytes?: number): TimelineRecorder {
  return new TimelineRecorder({
    store,
    secrets: () => secrets,
    log: silentLogger,
    ...(capacity === undefined ? {} : { capacity }),
    ...(maxBytes === undefined ? {} : { maxBytes }),
  });
}

const Big = defineEvent('BigResultTestEvent', {
  payload: { n: z.number() },
  result: z.object({ text: z.string(), elements: z.array(z.record(z.string(), z.unknown())) }),
  timeoutMs: 1000,
});

/** A state-like result: its elements carry many attributes, so even the cut entry is large. */
function bigResult(n: number): { text: string; elements: Array<Record<string, unknown>> } {
  return {
    text: `${n} ${'t'.repeat(500_000)}`,
    elements: Array.from({ length: 200 }, (_, index) => ({
      index,
      name: 'n'.repeat(300),
      attributes: Object.fromEntries(Array.from({ length: 30 }, (_unused, key) => [`data-${key}`, 'v'.repeat(300)])),
    })),
  };
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('TimelineRecorder', () => {
  it('records events with lineage, source, handlers and durations, without the secrets', async () => {
    const bus = new EventBus();
    const timeline = recorder(memoryStore());
    bus.observe(timeline.observer);
    bus.on(
      Outer,
      async (event, ctx) => {
        await ctx.emit(Inner, {});
        return `typed ${event.payload.text}`;
      },
      { name: 'outer' },
    );
    bus.on(Inner, () => undefined, { name: 'inner' });
    await bus.emit(Outer, { text: 's3cret' }, { source: 'panel:ab12' }).result();
    const [outer, inner] = timeline.entries() as TimelineEvent[];
    expect(outer).toMatchObject({
      kind: 'event',
      type: 'OuterTestEvent',
      parent_id: null,
      source: 'panel:ab12',
      status: 'completed',
      payload: { text: '<secret>password</secret>' },
      handlers: [{ handler: 'outer', status: 'completed', result: 'typed <secret>password</secret>' }],
    });
    expect(outer?.handlers[0]?.duration_ms).toBeGreaterThanOrEqual(0);
    expect(inner).toMatchObject({ type: 'InnerTestEvent', parent_id: outer?.id, source: 'panel:ab12' });
    expect(JSON.stringify(timeline.entries())).not.toContain('s3cret');
  });

  it('pushes batched updates and a reset on clear', async () => {
    const bus = new EventBus();
    const timeline = recorder(memoryStore());
    const updates: TimelineUpdate[] = [];
    timeline.onUpdate((update) => updates.push(update));
    bus.observe(timeline.observer);
    bus.on(Inner, () => undefined, { name: 'inner' });
    await bus.emit(Inner, {}).result();
    timeline.note('warn', 'Emergency stop');
    await wait(80);
    expect(updates).toHaveLength(1);
    expect(updates[0]?.reset).toBe(false);
    expect(updates[0]?.entries.map((entry) => (entry.kind === 'note' ? entry.text : entry.status))).toEqual([
      'completed',
      'Emergency stop',
    ]);
    timeline.clear();
    expect(updates.at(-1)).toEqual({ reset: true, entries: [] });
  });

  it('does not repeat the same note back to back (an idle worker woken again and again)', () => {
    const timeline = recorder(memoryStore());
    timeline.note('info', 'Extension worker restarted');
    timeline.note('info', 'Extension worker restarted');
    timeline.note('warn', 'Emergency stop');
    timeline.note('info', 'Extension worker restarted');
    expect(timeline.entries().map((entry) => (entry as { text: string }).text)).toEqual([
      'Extension worker restarted',
      'Emergency stop',
      'Extension worker restarted',
    ]);
  });

  it('keeps only the newest entries', () => {
    const timeline = recorder(memoryStore(), 3);
    for (const text of ['1', '2', '3', '4', '5']) {
      timeline.note('info', text);
    }
    expect(timeline.entries().map((entry) => (entry as { text: string }).text)).toEqual(['3', '4', '5']);
  });

  it('keeps the entries within its byte budget, in memory and in the store, and tells the panels what it dropped', async () => {
    const store = memoryStore();
    const timeline = recorder(store, 400, 200_000);
    const updates: TimelineUpdate[] = [];
    timeline.onUpdate((update) => updates.push(update));
    const bus = new EventBus();
    bus.observe(timeline.observer);
    bus.on(Big, (event) => bigResult(event.payload.n), { name: 'dom' });
    for (let n = 0; n < 40; n++) {
      await bus.emit(Big, { n }).result();
      const retention = timeline.retention();
      expect(retention.bytes).toBeLessThanOrEqual(200_000);
      // The estimate stays close to what is really kept.
      expect(JSON.stringify(timeline.entries()).length).toBeLessThan(retention.bytes * 1.5);
    }
    const entries = timeline.entries() as TimelineEvent[];
    expect(entries.length).toBeGreaterThan(3);
    expect(entries.length).toBeLessThan(40);
    // Each entry is cut hard enough to be small, and the newest is kept.
    expect(JSON.stringify(entries.at(-1)).length).toBeLessThan(40_000);
    expect(JSON.stringify(entries.at(-1)?.handlers[0]?.result)).toContain('"39 ttt');
    await wait(600);
    expect(JSON.stringify(store.data['tabpilot.timeline']).length).toBeLessThan(300_000);
    await wait(80);
    const dropped = new Set(updates.flatMap((update) => update.dropped ?? []));
    const pushed = new Set(updates.flatMap((update) => update.entries.map((entry) => entry.id)));
    const kept = new Set(entries.map((entry) => entry.id));
    // What a panel holds (everything pushed, less everything dropped) is what the worker keeps.
    expect([...pushed].filter((id) => !dropped.has(id)).sort()).toEqual([...kept].sort());
  });

  it('survives a worker restart through the store: older entries first, unfinished ones interrupted', async () => {
    const store = memoryStore();
    const first = recorder(store);
    const bus = new EventBus();
    bus.observe(first.observer);
    let release!: () => void;
    bus.on(Inner, () => new Promise<void>((resolve) => (release = resolve)), { name: 'slow' });
    const pending = bus.emit(Inner, {});
    await wait(10);
    first.note('info', 'before');
    await wait(600);
    const second = recorder(store);
    second.note('info', 'after');
    expect(await second.restore()).toBe(2);
    const entries: TimelineEntry[] = second.entries();
    expect(entries.map((entry) => (entry.kind === 'note' ? entry.text : entry.status))).toEqual([
      'interrupted',
      'before',
      'after',
    ]);
    release();
    await pending.result();
  });

  it('drops stored entries that do not parse instead of failing', async () => {
    const store = memoryStore({
      'tabpilot.timeline': [
        { kind: 'nonsense' },
        { kind: 'note', id: 'n', created_at: 1, level: 'info', source: null, text: 'kept' },
      ],
    });
    const timeline = recorder(store);
    expect(await timeline.restore()).toBe(1);
    expect(timeline.entries()).toHaveLength(1);
  });
});
