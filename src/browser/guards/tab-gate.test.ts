import { describe, expect, it } from 'vitest';
import { TabpilotError } from '../../shared/errors';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { ScrollEvent } from '../../protocol/events/actions.events';
import { BrowserStateRequestEvent } from '../../protocol/events/state.events';
import { captchaCondition } from './captcha-condition';
import { tabOfPayload } from './tab-gate';

describe('tab gate', () => {
  it("finds an event's tab: its target_id or the focused one; a new tab is none", () => {
    expect(tabOfPayload({ target_id: 'A' }, 'F')).toBe('A');
    expect(tabOfPayload({ target_id: null }, 'F')).toBe('F');
    expect(tabOfPayload({ url: 'x', new_tab: true }, 'F')).toBeUndefined();
  });

  it('holds an action on a tab with a challenge until it clears, lets reads through, and fails it after the window', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('https://site.test/');
    const { session } = await startedFakeSession({ browser });
    let scrolled = 0;
    session.bus.on(ScrollEvent, () => void scrolled++ as never, { name: 'test.on_ScrollEvent' });
    session.bus.on(BrowserStateRequestEvent, () => ({}) as never, { name: 'test.on_BrowserStateRequestEvent' });
    const state = {
      vendor: 'recaptcha' as const,
      kind: 'widget' as const,
      url: 'u',
      since: Date.now(),
      solving: false,
    };
    let windowMs = 60_000;
    session.conditions.set(
      page.targetId,
      captchaCondition('T1', page.targetId, state, session.conditions, () => windowMs),
    );
    const started = new Promise<void>((resolve) =>
      session.bus.observe(({ phase, record }) => {
        if (phase === 'started' && record.event.type === ScrollEvent.type) {
          resolve();
        }
      }),
    );
    const held = session.bus.emit(ScrollEvent, { direction: 'down', target_id: page.targetId }).done();
    await started;
    expect(scrolled).toBe(0);
    session.conditions.clear(page.targetId, 'captcha');
    await held;
    expect(scrolled).toBe(1);

    windowMs = 0;
    session.conditions.set(
      page.targetId,
      captchaCondition('T1', page.targetId, state, session.conditions, () => windowMs),
    );
    const refused = await session.bus
      .emit(ScrollEvent, { direction: 'down', target_id: page.targetId })
      .result()
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TabpilotError);
    expect(refused).toMatchObject({ code: 'PERSON_NEEDED', details: { tab_id: 'T1', vendor: 'recaptcha' } });
    expect(scrolled).toBe(1);
    await expect(
      session.bus.emit(BrowserStateRequestEvent, { target_id: page.targetId }).done(),
    ).resolves.toBeDefined();
  });
});
