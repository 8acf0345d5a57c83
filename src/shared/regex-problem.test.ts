import { describe, expect, it } from 'vitest';
import { regexProblem } from './regex-problem';

describe('regexProblem', () => {
  it('says why a bad source does not compile, and nothing for a good one', () => {
    expect(regexProblem('a(b')).toMatch(/unterminated group/i);
    expect(regexProblem('[z-a]')).toMatch(/range/i);
    expect(regexProblem('order \\d+')).toBeNull();
  });
});
