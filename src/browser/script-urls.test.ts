import { describe, expect, it } from 'vitest';
import { runsScript } from './script-urls';

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
