import { describe, expect, it } from 'vitest';
import { route } from './cli-route';

const ACTIONS = new Set(['tabs', 'click', 'navigate', 'state']);
const actions = (): ReadonlySet<string> => ACTIONS;

describe('the CLI router', () => {
  it('answers version and help from the words alone', () => {
    expect(route(['--version'], actions)).toEqual({ kind: 'version' });
    expect(route(['-v'], actions)).toEqual({ kind: 'version' });
    expect(route([], actions)).toEqual({ kind: 'help', topic: undefined });
    expect(route(['--help'], actions)).toEqual({ kind: 'help', topic: undefined });
    expect(route(['help'], actions)).toEqual({ kind: 'help', topic: undefined });
    expect(route(['help', 'click'], actions)).toEqual({ kind: 'help', topic: 'click' });
    expect(route(['help', 'mcp'], actions)).toEqual({ kind: 'help', topic: 'mcp' });
    expect(route(['click', '--help'], actions)).toEqual({ kind: 'help', topic: 'click' });
    expect(route(['--json', 'tabs', '-h'], actions)).toEqual({ kind: 'help', topic: 'tabs' });
    for (const command of ['launch', 'connect', 'run', 'mcp', 'repl', 'install-host', 'doctor', 'host', 'completion']) {
      expect(route([command, '--help'], actions)).toEqual({ kind: 'help', topic: command });
    }
  });

  it('sends actions to the host and the other commands to the full CLI', () => {
    expect(route(['tabs'], actions)).toEqual({ kind: 'action', action: 'tabs' });
    expect(route(['--client', 'tabpilot:x', 'click', '--index', '3'], actions)).toEqual({
      kind: 'action',
      action: 'click',
    });
    expect(route(['launch', '--headless'], actions)).toEqual({ kind: 'command', command: 'launch' });
    expect(route(['connect', '--extension'], actions)).toEqual({ kind: 'command', command: 'connect' });
    expect(route(['completion', 'bash'], actions)).toEqual({ kind: 'completion', shell: 'bash' });
  });

  it('does not read the catalog for a command of the full CLI (the native host starts without it)', () => {
    const never = (): ReadonlySet<string> => {
      throw new Error('the catalog was read');
    };
    expect(route(['host', 'chrome-extension://abc/'], never)).toEqual({ kind: 'command', command: 'host' });
    expect(route(['mcp', '--extension'], never)).toEqual({ kind: 'command', command: 'mcp' });
  });

  it('answers an unknown word as bad usage, with the close ones', () => {
    expect(route(['tbas'], actions)).toEqual({
      kind: 'usage',
      message: 'unknown command or action "tbas" (did you mean "tabs"?)',
    });
    expect(route(['frobnicate'], actions)).toEqual({
      kind: 'usage',
      message: 'unknown command or action "frobnicate"',
    });
    expect(route(['help', 'lanch'], actions)).toMatchObject({
      kind: 'usage',
      message: expect.stringContaining('"launch"'),
    });
    expect(route(['--frob'], actions)).toMatchObject({ kind: 'usage' });
    // The native host's own word is not offered to people.
    expect(route(['hots'], actions)).toEqual({ kind: 'usage', message: 'unknown command or action "hots"' });
  });
});
