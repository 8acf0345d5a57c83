import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent } from '../protocol/define-event';
import { EventBus } from './event-bus';
import { OMITTED_KEY } from './summary';

/** A state-like result: a long text and many element entries, megabytes as JSON. */
function bigResult(elements: number): { tab_id: string; url: string; text: string; elements: unknown[] } {
  return {
    tab_id: 'AB12',
    url: 'http://127.0.0.1/huge.html',
    text: 'x'.repeat(elements * 40),
    elements: Array.from({ length: elements }, (_, index) => ({
      index,
      tag: 'button',
      name: `Button number ${index}`,
      attributes: { id: `b${index}`, class: 'btn primary' },
      box: [index, index, 80, 20],
    })),
  };
}

const State = defineEvent('StateLikeEvent', {
  payload: { target_id: z.string() },
  result: z.object({
    tab_id: z.string(),
    url: z.string(),
    text: z.string(),
    elements: z.array(z.unknown()),
  }),
  timeoutMs: 5000,
});
const Request = defineEvent('RequestLikeEvent', {
  payload: { label: z.string() },
  result: z.number(),
  timeoutMs: 5000,
});
const Upload = defineEvent('UploadLikeEvent', {
  payload: { target_id: z.string(), content_base64: z.string() },
  result: z.void(),
  timeoutMs: 5000,
});
const Medium = defineEvent('MediumEvent', {
  payload: { n: z.number() },
  result: z.string(),
  timeoutMs: 5000,
});

describe('EventHistory byte budget', () => {
  it('keeps whole payloads and results only within its byte budget, and every event within its count', async () => {
    const bus = new EventBus({ history: { maxEvents: 50, maxBytes: 200_000, maxEventBytes: 100_000 } });
    // 20 KB results: each fits the per-event limit; together they pass the total budget many times over.
    bus.on(Medium, (event) => `${event.payload.n}:${'y'.repeat(20_000)}`, { name: 'medium' });
    for (let n = 0; n < 120; n++) {
      await bus.emit(Medium, { n });
      const stats = bus.historyStats();
      expect(stats.bytes).toBeLessThanOrEqual(200_000);
      expect(stats.events).toBeLessThanOrEqual(50);
    }
    const views = bus.history();
    expect(views).toHaveLength(50);
    // The newest stay whole, the oldest kept are summarised: lineage and timing stay for all of them.
    const whole = views.filter((view) => view.summarized !== true);
    const summarised = views.filter((view) => view.summarized === true);
    expect(whole.length).toBeGreaterThan(0);
    expect(summarised.length).toBeGreaterThan(0);
    expect(views.indexOf(whole[0] as (typeof views)[number])).toBeGreaterThan(
      views.indexOf(summarised.at(-1) as (typeof views)[number]),
    );
    expect(whole.at(-1)?.handlers[0]?.result).toBe(`119:${'y'.repeat(20_000)}`);
    for (const view of summarised) {
      expect(view.handlers[0]?.status).toBe('completed');
      expect(view.handlers[0]?.duration_ms).toBeGreaterThanOrEqual(0);
      expect(view.completed_at).toBeGreaterThanOrEqual(view.created_at);
      expect(view.handlers[0]?.result).toEqual({
        [OMITTED_KEY]: { value: expect.stringMatching(/^string, 200\d\d chars$/) as unknown },
      });
    }
  });

  it('summarises a large result at once: the caller gets it whole, history a size note, the lineage survives', async () => {
    const bus = new EventBus();
    bus.on(
      Request,
      async (event, ctx) => {
        const state = await ctx.emit(State, { target_id: event.payload.label });
        return state?.elements.length ?? 0;
      },
      { name: 'request' },
    );
    const big = bigResult(10_000);
    bus.on(State, () => big, { name: 'dom' });
    const handle = bus.emit(Request, { label: 'T1' });
    expect(await handle).toBe(10_000);
    const views = bus.history();
    const parent = views.find((view) => view.type === 'RequestLikeEvent');
    const child = views.find((view) => view.type === 'StateLikeEvent');
    expect(child?.parent_id).toBe(parent?.id);
    expect(parent?.handlers[0]?.child_ids).toEqual([child?.id]);
    expect(child?.summarized).toBe(true);
    expect(child?.payload).toEqual({ target_id: 'T1' });
    expect(child?.handlers[0]?.status).toBe('completed');
    expect(child?.handlers[0]?.handler).toBe('dom');
    const summary = child?.handlers[0]?.result as Record<string, unknown>;
    expect(summary).toEqual({
      tab_id: 'AB12',
      url: 'http://127.0.0.1/huge.html',
      [OMITTED_KEY]: { text: 'string, 400000 chars', elements: 'array, 10000 items' },
    });
    expect(parent?.summarized).toBeUndefined();
    expect(parent?.handlers[0]?.result).toBe(10_000);
    expect(bus.historyStats().bytes).toBeLessThan(10_000);
  });

  it('gives a caller that awaits a summarised event the full result', async () => {
    const bus = new EventBus();
    const big = bigResult(5_000);
    bus.on(State, () => big, { name: 'dom' });
    const handle = bus.emit(State, { target_id: 'T1' });
    await handle.done();
    // The event is complete and summarised in history; its handle still reads the record.
    expect(bus.history()[0]?.summarized).toBe(true);
    const result = await handle.result();
    expect(result?.elements).toHaveLength(5_000);
    expect(result?.text.length).toBe(200_000);
    const [run] = await handle.results();
    expect((run?.result as { elements: unknown[] }).elements).toHaveLength(5_000);
  });

  it('keeps the small fields of a summarised payload, so find still matches on them', async () => {
    const bus = new EventBus();
    bus.on(Upload, () => undefined, { name: 'upload' });
    await bus.emit(Upload, { target_id: 'T7', content_base64: 'A'.repeat(1_000_000) });
    await bus.emit(Upload, { target_id: 'T8', content_base64: 'small' });
    const found = await bus.find(Upload, { where: (event) => event.payload.target_id === 'T7' });
    expect(found?.payload.target_id).toBe('T7');
    expect(found?.payload.content_base64).toBeUndefined();
    expect((found?.payload as Record<string, unknown>)[OMITTED_KEY]).toEqual({
      content_base64: 'string, 1000000 chars',
    });
    const small = await bus.find(Upload, { where: (event) => event.payload.target_id === 'T8' });
    expect(small?.payload.content_base64).toBe('small');
  });

  it('applies smaller limits at once', async () => {
    const bus = new EventBus();
    bus.on(Medium, (event) => `${event.payload.n}:${'y'.repeat(20_000)}`, { name: 'medium' });
    for (let n = 0; n < 30; n++) {
      await bus.emit(Medium, { n });
    }
    expect(bus.historyStats().bytes).toBeGreaterThan(500_000);
    bus.setHistoryLimits({ maxEvents: 10, maxBytes: 50_000 });
    const stats = bus.historyStats();
    expect(stats.events).toBe(10);
    expect(stats.bytes).toBeLessThanOrEqual(50_000);
    expect(bus.history().at(-1)?.summarized).toBeUndefined();
  });
});
