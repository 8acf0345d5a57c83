import { describe, expect, it } from 'vitest';
import { parseMcpArgs } from './mcp-cli';

describe('tabpilot mcp arguments', () => {
  it('takes --client with the extension, and refuses it with a browser of its own or empty', () => {
    expect(parseMcpArgs(['--client', 'claude-code 2'])).toMatchObject({ mode: 'extension', client: 'claude-code 2' });
    expect(parseMcpArgs(['--extension'])).toMatchObject({ mode: 'extension', client: undefined });
    expect(() => parseMcpArgs(['--launch', '--client', 'x'])).toThrow(/--client .* goes with --extension/);
    expect(() => parseMcpArgs(['--cdp-url', 'ws://127.0.0.1:9/x', '--client', 'x'])).toThrow(/goes with --extension/);
    expect(() => parseMcpArgs(['--client', '  '])).toThrow('--client needs a name');
  });
});
