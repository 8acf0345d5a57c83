import { describe, expect, it } from 'vitest';
import { parseRun } from './run-cli';

describe('tabpilot run arguments', () => {
  it('takes --extension with a client, a profile and --yes, the client from TABPILOT_CLIENT by default', () => {
    expect(parseRun(['run', 'find', 'the', 'price', '--extension'])).toEqual({
      mode: 'extension',
      task: 'find the price',
      client: 'tabpilot',
      userDataDir: undefined,
      maxSteps: undefined,
      yes: false,
    });
    expect(
      parseRun(['run', 'x', '--extension', '--client', 'tabpilot:ci', '--user-data-dir', '/p', '--yes']),
    ).toMatchObject({ mode: 'extension', client: 'tabpilot:ci', userDataDir: '/p', yes: true });
    expect(parseRun(['run', 'x', '--extension'], { TABPILOT_CLIENT: 'mcp:shell' })).toMatchObject({
      client: 'mcp:shell',
    });
    expect(() => parseRun(['run', 'x', '--extension', '--client', 'someone else'])).toThrow(/^--client someone else: /);
  });

  it('refuses the model flags with --extension, naming the panel settings it uses instead', () => {
    for (const flags of [
      ['--model', 'gpt'],
      ['--base-url', 'http://127.0.0.1:1/v1'],
      ['--provider', 'anthropic'],
      ['--api-key', 'sk-1'],
      ['--config', 'c.json'],
    ]) {
      expect(() => parseRun(['run', 'x', '--extension', ...flags])).toThrow(
        `${flags[0]} cannot go with --extension: the extension's agent uses the model, key and agent settings of its side panel (Settings > Agent)`,
      );
    }
    expect(() => parseRun(['run', 'x', '--extension', '--model', 'm', '--api-key', 'k'])).toThrow(
      /^--model, --api-key cannot go with --extension/,
    );
    expect(() => parseRun(['run', 'x', '--extension', '--headless'])).toThrow(
      /--headless and --headed go with --launch/,
    );
  });

  it('needs a task and exactly one browser, and keeps --client and --user-data-dir to --extension', () => {
    expect(() => parseRun(['run', '  ', '--extension'])).toThrow(/run needs a task/);
    expect(() => parseRun(['run', 'x'])).toThrow('run needs exactly one of --launch, --cdp-url URL or --extension');
    expect(() => parseRun(['run', 'x', '--launch', '--extension'])).toThrow(/exactly one of/);
    expect(() => parseRun(['run', 'x', '--cdp-url', 'ws://h/x', '--extension'])).toThrow(/exactly one of/);
    expect(() => parseRun(['run', 'x', '--launch', '--client', 'tabpilot'])).toThrow(/--client goes with --extension/);
    expect(() => parseRun(['run', 'x', '--launch', '--user-data-dir', '/p'])).toThrow(
      /--user-data-dir goes with --extension/,
    );
  });

  it('keeps the in-process modes as they were', () => {
    expect(parseRun(['run', 'x', '--launch', '--headless', '--model', 'm', '--api-key', 'k', '--yes'])).toEqual({
      mode: 'node',
      task: 'x',
      cdpUrl: undefined,
      headless: true,
      config: undefined,
      model: 'm',
      baseUrl: undefined,
      provider: undefined,
      apiKey: 'k',
      maxSteps: undefined,
      yes: true,
    });
    expect(parseRun(['run', 'x', '--cdp-url', 'http://127.0.0.1:9222', '--headed'])).toMatchObject({
      mode: 'node',
      cdpUrl: 'http://127.0.0.1:9222',
      headless: false,
    });
  });

  it('takes --max-steps in either mode, a whole number from 1 to 1000', () => {
    expect(parseRun(['run', 'x', '--extension', '--max-steps', '3'])).toMatchObject({ maxSteps: 3 });
    expect(parseRun(['run', 'x', '--launch', '--max-steps', '1000'])).toMatchObject({ maxSteps: 1000 });
    for (const bad of ['0', '1001', '2.5', 'ten', '']) {
      expect(() => parseRun(['run', 'x', '--extension', '--max-steps', bad])).toThrow(
        `--max-steps must be a whole number from 1 to 1000, got ${bad}`,
      );
    }
  });
});
