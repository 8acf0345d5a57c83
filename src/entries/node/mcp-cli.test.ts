import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installedServerCommand, parseMcpArgs } from './mcp-cli';

describe('tabpilot mcp arguments', () => {
  it('takes --client with the extension, and refuses it with a browser of its own or empty', () => {
    expect(parseMcpArgs(['--client', 'claude-code 2'])).toMatchObject({ mode: 'extension', client: 'claude-code 2' });
    expect(parseMcpArgs(['--extension'])).toMatchObject({ mode: 'extension', client: undefined });
    expect(() => parseMcpArgs(['--launch', '--client', 'x'])).toThrow(/--client .* goes with --extension/);
    expect(() => parseMcpArgs(['--cdp-url', 'ws://127.0.0.1:9/x', '--client', 'x'])).toThrow(/goes with --extension/);
    expect(() => parseMcpArgs(['--client', '  '])).toThrow('--client needs a name');
  });
});

describe('tabpilot mcp --print-config', () => {
  it('takes a known client and keeps the server options, paths made absolute', () => {
    const options = parseMcpArgs(['--print-config', 'codex', '--launch', '--config', 'rel/tabpilot.json', '--slim']);
    expect(options).toMatchObject({ printConfig: 'codex', mode: 'launch' });
    expect(options !== 'help' && options.serverArgs).toEqual([
      '--launch',
      '--config',
      resolve('rel/tabpilot.json'),
      '--slim',
    ]);
    expect(parseMcpArgs(['--print-config=vscode', '--cdp-url=ws://h:1/x'])).toMatchObject({
      printConfig: 'vscode',
      serverArgs: ['--cdp-url=ws://h:1/x'],
    });
    expect(() => parseMcpArgs(['--print-config', 'zed'])).toThrow(
      /unknown client "zed" \(one of claude, cursor, vscode, codex\)/,
    );
  });

  it('starts the package bin with this Node by absolute paths', () => {
    const server = installedServerCommand(['--launch']);
    expect(server.command).toBe(process.execPath);
    expect(server.args).toEqual([
      join(import.meta.dirname, '..', '..', '..', 'bin', 'tabpilot.mjs'),
      'mcp',
      '--launch',
    ]);
  });
});
