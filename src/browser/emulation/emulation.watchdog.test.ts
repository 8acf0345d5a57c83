import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { EmulateEvent } from '../../protocol/actions/emulation.actions';
import { TabLeaseEndedEvent } from '../../protocol/events/tabs.events';
import { emulationWatchdog } from './emulation.watchdog';

/** The params of every call of one CDP method, in order. */
function calls(browser: FakeBrowser, method: string): unknown[] {
  return browser.sent.filter((message) => message.method === method).map((message) => message.params);
}

async function started(): Promise<{
  browser: FakeBrowser;
  session: Awaited<ReturnType<typeof startedFakeSession>>['session'];
  targetId: string;
}> {
  const browser = new FakeBrowser();
  const page = browser.addPage('https://example.test/');
  const { session } = await startedFakeSession({ browser, watchdogs: [emulationWatchdog] });
  return { browser, session, targetId: page.targetId };
}

describe('EmulationWatchdog', () => {
  it('sends only what changed, and grants geolocation to the tab origin alone', async () => {
    const { browser, session, targetId } = await started();
    await session.bus.emit(EmulateEvent, { target_id: targetId, timezone: 'Asia/Tokyo' });
    const answer = await session.bus.emit(EmulateEvent, {
      target_id: targetId,
      geolocation: { latitude: 1, longitude: 2 },
    });
    expect(answer).toMatchObject({ timezone: 'Asia/Tokyo', geolocation_permission: 'granted_to_origin' });
    expect(calls(browser, 'Emulation.setTimezoneOverride')).toEqual([{ timezoneId: 'Asia/Tokyo' }]);
    expect(calls(browser, 'Browser.setPermission')).toEqual([
      { permission: { name: 'geolocation' }, setting: 'granted', origin: 'https://example.test' },
    ]);
    expect(browser.sentMethods()).not.toContain('Browser.grantPermissions');
  });

  it('takes back what it sent when the browser refuses a part, and names the refused field', async () => {
    const { browser, session, targetId } = await started();
    browser.responders.set('Emulation.setEmulatedMedia', () => {
      throw new Error("'Emulation.setEmulatedMedia' wasn't found");
    });
    await expect(
      session.bus.emit(EmulateEvent, { target_id: targetId, timezone: 'Asia/Tokyo', color_scheme: 'dark' }),
    ).rejects.toMatchObject({ code: 'UNSUPPORTED', details: { field: 'color_scheme' } });
    expect(calls(browser, 'Emulation.setTimezoneOverride')).toEqual([{ timezoneId: 'Asia/Tokyo' }, { timezoneId: '' }]);
    // Nothing is held for the tab: the next call starts from the browser's own.
    expect(await session.bus.emit(EmulateEvent, { target_id: targetId, locale: 'fr-FR' })).toMatchObject({
      timezone: null,
      locale: 'fr-FR',
    });
  });

  it('clears the tab and withdraws the grant when the client lets it go', async () => {
    const { browser, session, targetId } = await started();
    await session.bus.emit(EmulateEvent, {
      target_id: targetId,
      cpu_throttling_rate: 4,
      geolocation: { latitude: 1, longitude: 2 },
    });
    await session.bus.emit(TabLeaseEndedEvent, { target_ids: [targetId], client: 'mcp:alpha' });
    expect(calls(browser, 'Emulation.setCPUThrottlingRate')).toEqual([{ rate: 4 }, { rate: 1 }]);
    expect(browser.sentMethods()).toContain('Emulation.clearGeolocationOverride');
    expect(calls(browser, 'Browser.setPermission').at(-1)).toEqual({
      permission: { name: 'geolocation' },
      setting: 'prompt',
      origin: 'https://example.test',
    });
  });
});
