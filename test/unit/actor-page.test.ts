import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../fakes/fake-browser';
import { startedFakeSession } from '../fakes/fake-session';
import { securityWatchdog } from '../../src/browser/security/security.watchdog';
import { Actor } from '../actor/index';

describe('actor Page', () => {
  it('refuses the actor road too (goto skips NavigateToUrlEvent)', async () => {
    const browser = new FakeBrowser();
    const { session } = await startedFakeSession({
      browser,
      config: { block_ip_addresses: true },
      watchdogs: [securityWatchdog],
    });
    const page = await new Actor(session).currentPage();
    await expect(page.goto('http://0x7f.1:8080/')).rejects.toMatchObject({
      code: 'URL_BLOCKED',
      details: { rule: 'block_ip_addresses', pattern: '127.0.0.1' },
    });
    expect(browser.sentMethods()).not.toContain('Page.navigate');
  });
});
