import { describe, expect, it } from 'vitest';
import { MalformedOutputError, parseTextDecision } from './json-output';

describe('parseTextDecision', () => {
  it('reads the plain JSON answer', () => {
    expect(
      parseTextDecision('{"thinking":"t","next_goal":"g","actions":[{"name":"click","params":{"index":3}}]}'),
    ).toEqual({ thinking: 't', next_goal: 'g', actions: [{ name: 'click', params: { index: 3 } }] });
  });

  it('repairs fences, prose around it, trailing commas and browser-use action objects', () => {
    const text =
      'Sure! Here it is:\n```json\n{"next_goal": "go", "actions": [{"navigate": {"url": "http://x/"},},],}\n```\nDone.';
    expect(parseTextDecision(text)).toEqual({
      thinking: null,
      next_goal: 'go',
      actions: [{ name: 'navigate', params: { url: 'http://x/' } }],
    });
  });

  it('closes an answer cut off mid-object, and keeps braces inside strings', () => {
    expect(
      parseTextDecision('{"thinking": "a } b", "actions": [{"name": "scroll", "params": {"down": true}}]').actions,
    ).toEqual([{ name: 'scroll', params: { down: true } }]);
  });

  it('refuses what cannot be read, saying why', () => {
    expect(() => parseTextDecision('I will click the button.')).toThrow(MalformedOutputError);
    expect(() => parseTextDecision('I will click the button.')).toThrow('no JSON object');
    expect(() => parseTextDecision('{"thinking": "x"}')).toThrow('no "actions"');
    expect(() => parseTextDecision('{"actions": [{"params": {}}]}')).toThrow('actions[0] has no "name"');
    expect(() => parseTextDecision('{"actions": [nope]}')).toThrow('not valid JSON');
  });
});
