import { describe, expect, it } from 'vitest';
import type { CommandResponse } from '../../protocol/commands';
import { requestWithCancel } from './command-channel';

describe('requestWithCancel', () => {
  it('sends the request, then a cancel naming its id when the signal aborts; the request’s own answer stands', async () => {
    const sent: Array<{ id: string; action: string; params: Record<string, unknown> }> = [];
    let answer: ((response: CommandResponse) => void) | undefined;
    let n = 0;
    const send = (request: { id: string; action: string; params: Record<string, unknown> }) => {
      sent.push(request);
      return request.action === 'cancel'
        ? Promise.resolve<CommandResponse>({ id: request.id, ok: true, result: { cancelled: true } })
        : new Promise<CommandResponse>((resolve) => (answer = resolve));
    };
    const controller = new AbortController();
    const pending = requestWithCancel(send, () => `r${++n}`, 'wait', { seconds: 30 }, { signal: controller.signal });
    controller.abort();
    expect(sent).toEqual([
      { id: 'r1', action: 'wait', params: { seconds: 30 } },
      { id: 'r2', action: 'cancel', params: { request_id: 'r1' } },
    ]);
    answer?.({ id: 'r1', ok: false, error: { code: 'CANCELLED', message: 'cancelled' } });
    expect(await pending).toMatchObject({ id: 'r1', error: { code: 'CANCELLED' } });
  });

  it('sends no cancel for a request that was answered before the signal aborted', async () => {
    const sent: string[] = [];
    const controller = new AbortController();
    await requestWithCancel(
      (request) => {
        sent.push(request.action);
        return Promise.resolve<CommandResponse>({ id: request.id, ok: true, result: null });
      },
      () => 'x',
      'tabs',
      {},
      { signal: controller.signal },
    );
    controller.abort();
    expect(sent).toEqual(['tabs']);
  });
});
