import { describe, expect, it } from 'vitest';
import { pollUntil, sleep } from '../../shared/time';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { defaultBrowserConfig } from '../config';
import { defineWatchdog } from '../define-watchdog';
import {
  CaptchaClearedEvent,
  CaptchaDetectedEvent,
  CaptchaSolverFinishedEvent,
  CaptchaSolverStartedEvent,
} from '../../protocol/events/captcha.events';
import type { PageFacts } from './captcha-detect';
import { captchaWatchdog } from './captcha.watchdog';

const ANCHOR = 'https://www.google.com/recaptcha/api2/anchor?ar=1&k=key&size=normal';
const until = <T>(check: () => T | undefined): Promise<T> =>
  pollUntil(check, { timeoutMs: 5000, intervalMs: 10, onTimeout: () => new Error('condition never held') });

/** A stand-in for an external solver: takes every challenge on and reports success. */
const solver = (solve: () => void) =>
  defineWatchdog({
    name: 'test-solver',
    listensTo: [CaptchaDetectedEvent],
    emits: [CaptchaSolverStartedEvent, CaptchaSolverFinishedEvent],
    setup: (ctx) => ({
      CaptchaDetectedEvent: async (event, hctx) => {
        const { target_id, vendor, url } = event.payload;
        await hctx.emit(CaptchaSolverStartedEvent, { target_id, vendor, url, started_at: Date.now() }).done();
        await until(() => (ctx.session.conditions.status(target_id).status === 'solving' ? true : undefined));
        solve();
        hctx.emit(CaptchaSolverFinishedEvent, {
          target_id,
          vendor,
          url,
          duration_ms: 1,
          finished_at: Date.now(),
          success: true,
        });
      },
    }),
  });

describe('captcha watchdog', () => {
  it('probes only pages with a challenge frame, and lets an external solver take the challenge on', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('https://site.test/');
    const plain = browser.addPage('https://other.test/');
    let facts: PageFacts = {
      frames: [],
      tokens: { recaptcha: false, hcaptcha: false, turnstile: false },
      interstitial: false,
    };
    const probedOn: string[] = [];
    browser.responders.set('Runtime.evaluate', (_params, sessionId) => {
      probedOn.push(sessionId ?? '');
      return { result: { type: 'object', value: facts } };
    });
    const { session } = await startedFakeSession({
      browser,
      config: { captcha: { ...defaultBrowserConfig().captcha, poll_ms: 50 } },
      watchdogs: [
        captchaWatchdog,
        solver(() => {
          facts = { ...facts, tokens: { ...facts.tokens, recaptcha: true } };
        }),
      ],
    });
    const seen: string[] = [];
    session.bus.observe(({ phase, record }) => {
      if (phase === 'emitted' && record.event.type.startsWith('Captcha')) {
        seen.push(record.event.type);
      }
    });
    browser.emitOn(plain, 'Page.frameNavigated', { frame: { id: 'f0', parentId: 'main', url: 'https://ads.test/x' } });
    browser.emitOn(page, 'Page.frameNavigated', { frame: { id: 'f1', parentId: 'main', url: ANCHOR } });
    await until(() => (seen.includes(CaptchaClearedEvent.type) ? true : undefined));
    expect(seen).toEqual([
      CaptchaDetectedEvent.type,
      CaptchaSolverStartedEvent.type,
      CaptchaSolverFinishedEvent.type,
      CaptchaClearedEvent.type,
    ]);
    expect(session.conditions.status(page.targetId).status).toBe('ok');
    expect(probedOn).not.toContain(browser.sessionsOf(plain.targetId)[0]);
  });
});

describe('captcha watchdog, when a look at the page fails or comes too early', () => {
  const none: PageFacts = {
    frames: [],
    tokens: { recaptcha: false, hcaptcha: false, turnstile: false },
    interstitial: false,
  };

  async function watched(browser: FakeBrowser) {
    const { session } = await startedFakeSession({
      browser,
      config: { captcha: { ...defaultBrowserConfig().captcha, poll_ms: 50 } },
      watchdogs: [captchaWatchdog],
    });
    const detected: string[] = [];
    session.bus.observe(({ phase, record }) => {
      if (phase === 'emitted' && record.event.type === CaptchaDetectedEvent.type) {
        detected.push((record.event.payload as { vendor: string }).vendor);
      }
    });
    return { session, detected };
  }

  it('looks again when a look fails, so a challenge frame already seen is still checked', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('https://site.test/');
    let failures = 0;
    browser.responders.set('Runtime.evaluate', () => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('Execution context was destroyed.');
      }
      return { result: { type: 'object', value: none } };
    });
    const { session, detected } = await watched(browser);
    failures = 1;
    browser.emitOn(page, 'Page.frameNavigated', { frame: { id: 'f1', parentId: 'main', url: ANCHOR } });
    await until(() => (detected.length > 0 ? true : undefined));
    expect(failures).toBe(0);
    expect(detected).toEqual(['recaptcha']);
    expect(session.conditions.status(page.targetId).status).toBe('needs_person');
  });

  it('looks again when asked while a look was under way, which may have seen the page before the change', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('https://site.test/');
    const bframe = 'https://www.google.com/recaptcha/api2/bframe?k=key';
    let facts = none;
    browser.responders.set('Runtime.evaluate', () => ({ result: { type: 'object', value: facts } }));
    const { session, detected } = await watched(browser);
    browser.hold('Runtime.evaluate');
    // An invisible widget's challenge frame, not shown yet: the look under way sees nothing to solve.
    browser.emitOn(page, 'Page.frameNavigated', { frame: { id: 'f1', parentId: 'main', url: bframe } });
    await until(() => (browser.sentMethods().includes('Runtime.evaluate') ? true : undefined));
    facts = { ...none, frames: [{ src: bframe, visible: true }] };
    browser.emitOn(page, 'Page.frameNavigated', { frame: { id: 'f2', parentId: 'main', url: `${bframe}&shown=1` } });
    // Past the new frame's probe delay (150 ms): its look is asked for while the first is still out.
    await sleep(300);
    browser.release('Runtime.evaluate');
    await until(() => (detected.length > 0 ? true : undefined));
    expect(detected).toEqual(['recaptcha']);
    expect(session.conditions.status(page.targetId).status).toBe('needs_person');
  });

  it("looks again when the tab's session is not ready yet as its challenge frame shows (a new tab on a loaded machine)", async () => {
    const browser = new FakeBrowser();
    browser.responders.set('Runtime.evaluate', () => ({ result: { type: 'object', value: none } }));
    const { session, detected } = await watched(browser);
    // The tab's setup reads its frame tree: held, the session is not ready while its frame navigates.
    browser.hold('Page.getFrameTree');
    const page = browser.addPage('https://site.test/');
    await until(() => (browser.sentMethods().includes('Page.getFrameTree') ? true : undefined));
    browser.emitOn(page, 'Page.frameNavigated', { frame: { id: 'f1', parentId: 'main', url: ANCHOR } });
    // Past the probe delay (150 ms), with the session still not ready.
    await sleep(300);
    expect(session.targets.sessionFor(page.targetId)).toBeUndefined();
    browser.release('Page.getFrameTree');
    await until(() => (detected.length > 0 ? true : undefined));
    expect(detected).toEqual(['recaptcha']);
    expect(session.conditions.status(page.targetId).status).toBe('needs_person');
  });
});
