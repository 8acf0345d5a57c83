import { describe, expect, it } from 'vitest';
import type { CdpSession } from '../../cdp/session';
import { pressStrokes, typeWithKeys } from './keyboard';
import { parseKeys } from './keys';

/** A session that records what it is sent and answers at once. */
function recorder(): { session: CdpSession; sent: Array<{ method: string; params: Record<string, unknown> }> } {
  const sent: Array<{ method: string; params: Record<string, unknown> }> = [];
  const session = {
    send: (method: string, params: Record<string, unknown>) => {
      sent.push({ method, params });
      return Promise.resolve({});
    },
  } as unknown as CdpSession;
  return { session, sent };
}

describe('keyboard dispatch', () => {
  it('holds modifiers around the main key, with the accumulated mask, and releases them in reverse', async () => {
    const { session, sent } = recorder();
    await pressStrokes(session, parseKeys('Control+Shift+t', 'other'), 'other');
    expect(sent.map(({ params }) => [params['type'], params['key'], params['modifiers']])).toEqual([
      ['rawKeyDown', 'Control', 2],
      ['rawKeyDown', 'Shift', 10],
      ['rawKeyDown', 'T', 10],
      ['keyUp', 'T', 10],
      ['keyUp', 'Shift', 2],
      ['keyUp', 'Control', 0],
    ]);
  });

  it('sends the Mac editing command with Meta shortcuts only when the browser is a Mac', async () => {
    const mac = recorder();
    await pressStrokes(mac.session, parseKeys('ControlOrMeta+a', 'mac'), 'mac');
    expect(mac.sent.find(({ params }) => params['key'] === 'a')?.params).toMatchObject({
      modifiers: 4,
      commands: ['selectAll'],
    });
    const linux = recorder();
    await pressStrokes(linux.session, parseKeys('ControlOrMeta+a', 'other'), 'other');
    const main = linux.sent.find(({ params }) => params['key'] === 'a')?.params;
    expect(main).toMatchObject({ modifiers: 2 });
    expect(main?.['commands']).toBeUndefined();
  });

  it('types text key by key; Enter types a carriage return; other characters go in as text', async () => {
    const { session, sent } = recorder();
    await typeWithKeys(session, 'Hi\né');
    expect(
      sent.map(({ method, params }) => [method, params['type'] ?? '', params['text'] ?? '', params['modifiers'] ?? '']),
    ).toEqual([
      ['Input.dispatchKeyEvent', 'keyDown', 'H', 8],
      ['Input.dispatchKeyEvent', 'keyUp', '', 8],
      ['Input.dispatchKeyEvent', 'keyDown', 'i', 0],
      ['Input.dispatchKeyEvent', 'keyUp', '', 0],
      ['Input.dispatchKeyEvent', 'keyDown', '\r', 0],
      ['Input.dispatchKeyEvent', 'keyUp', '', 0],
      ['Input.insertText', '', 'é', ''],
    ]);
  });
});
