import { describe, expect, it } from 'vitest';
import { assertNavigable, runsScript } from './url-guards';

describe('runsScript', () => {
  it('spots javascript: URLs however the browser would still read them as one', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:document.title="x"',
      '  javascript:void 0',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0001javascript:alert(1)',
    ]) {
      expect(runsScript(url), JSON.stringify(url)).toBe(true);
    }
  });

  it('lets pages, data: documents and what is not a URL through', () => {
    for (const url of ['https://example.com/javascript:x', 'data:text/html,<p>x</p>', 'about:blank', 'not a url']) {
      expect(runsScript(url), url).toBe(false);
    }
  });
});

describe('assertNavigable', () => {
  it('refuses the browser own pages only where the transport cannot drive them', () => {
    for (const url of [
      'chrome://settings',
      'CHROME://version',
      'chrome-extension://abcdefghijklmnop/options.html',
      'https://chromewebstore.google.com/detail/x',
      'devtools://devtools/bundled/inspector.html',
    ]) {
      expect(() => assertNavigable(url, false), url).toThrow(expect.objectContaining({ code: 'URL_BLOCKED' }));
      expect(() => assertNavigable(url, true), url).not.toThrow();
    }
    expect(() => assertNavigable('https://example.com/chrome://x', false)).not.toThrow();
    expect(() => assertNavigable('about:blank', false)).not.toThrow();
  });

  it('refuses javascript: URLs everywhere', () => {
    expect(() => assertNavigable('javascript:void 0', true)).toThrow(expect.objectContaining({ code: 'URL_BLOCKED' }));
  });
});
