import { describe, expect, it } from 'vitest';
import { CliUsageError, parseParams, schemasFromDescribe, splitWords } from './cli-params';

const schemas = schemasFromDescribe({
  actions: [
    {
      name: 'navigate',
      params_schema: {
        properties: { url: { type: 'string' }, new_tab: { type: 'boolean' }, timeout_ms: { type: 'integer' } },
      },
    },
    { name: 'input', params_schema: { properties: { index: { type: 'integer' }, text: { type: 'string' } } } },
    { name: 'upload_file', params_schema: { properties: { files: { type: 'array' } } } },
  ],
});

describe('CLI params', () => {
  it('reads --name value by the type the schema gives, flags and --no-flags', () => {
    expect(parseParams('navigate', ['--url', 'example.com', '--new-tab', '--timeout-ms', '500'], schemas)).toEqual({
      url: 'example.com',
      new_tab: true,
      timeout_ms: 500,
    });
    expect(parseParams('navigate', ['--no-new-tab', '--url=a.test'], schemas)).toEqual({
      new_tab: false,
      url: 'a.test',
    });
    expect(parseParams('input', ['--index', '3', '--text', '123'], schemas)).toEqual({ index: 3, text: '123' });
    expect(parseParams('upload_file', ['--files', '[{"name":"a"}]'], schemas)).toEqual({ files: [{ name: 'a' }] });
  });

  it('takes one JSON object as the params', () => {
    expect(parseParams('navigate', ['{"url": "x.test", "new_tab": true}'], schemas)).toEqual({
      url: 'x.test',
      new_tab: true,
    });
    expect(() => parseParams('navigate', ['{nope'], schemas)).toThrow(CliUsageError);
  });

  it('says what is wrong with a value', () => {
    expect(() => parseParams('input', ['--index', 'three'], schemas)).toThrow(/must be a number/);
    expect(() => parseParams('input', ['index', '3'], schemas)).toThrow(/expected --name value/);
    expect(() => parseParams('input', ['--text'], schemas)).toThrow(/needs a value/);
  });

  it('refuses a param the action does not take, naming the close ones, before any host is asked', () => {
    expect(() => parseParams('input', ['--idx', '3'], schemas)).toThrow(CliUsageError);
    expect(() => parseParams('input', ['--idx', '3'], schemas)).toThrow(
      'input: unknown parameter --idx (did you mean "--index"?); tabpilot input --help lists them',
    );
    expect(() => parseParams('navigate', ['--no-such-flag'], schemas)).toThrow(/unknown parameter --no-such-flag/);
    expect(() => parseParams('navigate', ['--new-tabs'], schemas)).toThrow(/did you mean "--new-tab"/);
    // Without schemas (an action the catalog does not know) the host is left to judge the names.
    expect(parseParams('fly', ['--to', 'moon'])).toEqual({ to: 'moon' });
  });

  it('splits a REPL line as a shell would', () => {
    expect(splitWords(`input --index 2 --text "hello world" --x 'a b' c\\ d ''`)).toEqual([
      'input',
      '--index',
      '2',
      '--text',
      'hello world',
      '--x',
      'a b',
      'c d',
      '',
    ]);
    expect(() => splitWords('say "unclosed')).toThrow(/unclosed/);
  });
});
