import { describe, expect, it } from 'vitest';
import { globMatcher } from './url-glob';

describe('globMatcher (CDP urlPattern)', () => {
  it('matches the whole URL: * any run (none too), ? exactly one character', () => {
    const api = globMatcher('*/api/*');
    expect(api('http://a.test/api/data')).toBe(true);
    expect(api('http://a.test/api/')).toBe(true);
    expect(api('http://a.test/apis/data')).toBe(false);
    expect(globMatcher('http://a.test/v?/x')('http://a.test/v1/x')).toBe(true);
    expect(globMatcher('http://a.test/v?/x')('http://a.test/v12/x')).toBe(false);
    expect(globMatcher('http://a.test/x')('http://a.test/x?y=1')).toBe(false);
    expect(globMatcher('*')('')).toBe(true);
  });

  it('takes regular-expression characters literally and a backslash escapes * and ?', () => {
    expect(globMatcher('*/data.json?v=(1)')('http://a.test/data.jsonXv=(1)')).toBe(true);
    expect(globMatcher('*/data.json?v=(1)')('http://a.test/dataXjson?v=(1)')).toBe(false);
    expect(globMatcher('*/data.json\\?v=(1)')('http://a.test/data.json?v=(1)')).toBe(true);
    expect(globMatcher('*/data.json\\?v=(1)')('http://a.test/dataXjson?v=(1)')).toBe(false);
    expect(globMatcher('*/a\\*b')('http://a.test/a*b')).toBe(true);
    expect(globMatcher('*/a\\*b')('http://a.test/aXb')).toBe(false);
    expect(globMatcher('^http[s]+$')('^http[s]+$')).toBe(true);
    expect(globMatcher('^http[s]+$')('https')).toBe(false);
  });
});
