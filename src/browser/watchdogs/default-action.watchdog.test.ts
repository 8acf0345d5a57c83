import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { createLogger, type LogRecord } from '../../shared/logger';
import { defaultBrowserConfig } from '../config';
import { SendKeysEvent, TypeTextEvent } from '../../protocol/events/actions.events';
import { BrowserSession } from '../session';
import { defaultActionWatchdog } from './default-action.watchdog';

const SECRET = 'hunter2-THE-VALUE';

function focusOf(session: BrowserSession): string {
  return session.targets.focusedTargetId ?? '';
}

/**
 * A session whose page answers the in-page calls of typing: `focusInfo` says which URL has focus, and
 * every Input.insertText is recorded (what really reached the page).
 */
async function sessionOnPage(pageUrl: { current: string }): Promise<{
  session: BrowserSession;
  typed: string[];
  logs: LogRecord[];
}> {
  const browser = new FakeBrowser();
  browser.addPage('https://www.bank.test/login');
  const typed: string[] = [];
  browser.responders.set('Page.createIsolatedWorld', () => ({ executionContextId: 7 }));
  browser.responders.set('Runtime.callFunctionOn', (params) => {
    const args = (params['arguments'] as Array<{ value?: unknown }> | undefined) ?? [];
    if (String(params['functionDeclaration']).startsWith('function(name') && args[0]?.value === 'focusInfo') {
      return { result: { type: 'object', value: { url: pageUrl.current, in_frame: false, element: '<input#pw>' } } };
    }
    return { result: { type: 'boolean', value: true } };
  });
  browser.responders.set('Input.insertText', (params) => {
    typed.push(String(params['text']));
    return {};
  });
  const logs: LogRecord[] = [];
  const session = new BrowserSession({
    config: { ...defaultBrowserConfig(), sensitive_data: { '*.bank.test': { password: SECRET } } },
    endpoint: 'ws://fake/devtools/browser',
    openTransport: async () => browser.transport,
    host: { tabControl: undefined },
    logger: createLogger((record) => logs.push(record), { level: 'debug' }),
    watchdogs: [defaultActionWatchdog],
  });
  await session.start();
  return { session, typed, logs };
}

describe('DefaultActionWatchdog secrets', () => {
  it('types the secret into the page, and its value reaches no history, result, error or log', async () => {
    const page = { current: 'https://www.bank.test/login' };
    const { session, typed, logs } = await sessionOnPage(page);
    const result = await session.bus.emit(TypeTextEvent, {
      target_id: focusOf(session),
      text: 'me <secret>password</secret>',
      clear: false,
    });
    expect(typed).toEqual([`me ${SECRET}`]);

    page.current = 'https://evil.test/phish';
    await expect(
      session.bus.emit(TypeTextEvent, { target_id: focusOf(session), text: '<secret>password</secret>' }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(typed).toHaveLength(1);

    // Keys are pressed as written: a placeholder there is refused, never typed literally.
    await expect(
      session.bus.emit(SendKeysEvent, { target_id: focusOf(session), keys: '<secret>password</secret>' }),
    ).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
    });
    expect(typed).toHaveLength(1);

    const history = JSON.stringify(session.bus.history());
    expect(history).toContain('<secret>password</secret>');
    for (const seen of [history, JSON.stringify(result), JSON.stringify(logs)]) {
      expect(seen).not.toContain(SECRET);
    }
  });
});
