import { describe, expect, it } from 'vitest';
import { staysInOutputFolder } from './output-file-name';

describe('staysInOutputFolder', () => {
  it('accepts names and sub-folders of the output folder', () => {
    for (const name of ['page.pdf', 'shots/home.png', 'a..b.png', '.hidden.png']) {
      expect(staysInOutputFolder(name), name).toBe(true);
    }
  });

  it('refuses absolute paths, parent steps and NUL', () => {
    for (const name of [
      '/etc/x.png',
      '\\\\server\\share\\x.png',
      'C:\\x.png',
      'c:x.png',
      '../x.png',
      'a/../../x.png',
      'a\\..\\x.png',
      'x\0.png',
    ]) {
      expect(staysInOutputFolder(name), name).toBe(false);
    }
  });
});
