import { describe, expect, it } from 'vitest';
import { addressProblem } from './address';

describe('addressProblem', () => {
  it('takes whole URLs and bare hosts the worker completes with https://', () => {
    for (const ok of [
      'https://example.com',
      'http://127.0.0.1:8080/x',
      'example.com/x?y=1',
      'localhost:3000',
      'about:blank',
      '10.0.0.1',
    ]) {
      expect(addressProblem(ok), ok).toBeUndefined();
    }
  });

  it('refuses text that is no address, saying what it expected', () => {
    expect(addressProblem('not a url')).toContain('is not a web address');
    expect(addressProblem('hello')).toContain('example.com');
    expect(addressProblem('http://exa mple.com')).toContain('not a valid address');
  });
});
