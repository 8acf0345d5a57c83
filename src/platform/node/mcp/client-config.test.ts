import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MCP_CLIENTS, mcpClientSnippet, shellWord } from './client-config';

// A path with a space, a quote and a backslash: each format has to carry it back exactly.
const server = {
  command: '/opt/my node/bin/node',
  args: ["/home/o'neil/tabpilot\\bin/tabpilot.mjs", 'mcp', '--launch'],
};

describe('tabpilot mcp --print-config snippets', () => {
  it('Claude Code: a claude mcp add line a shell splits back into the same words', () => {
    const line = mcpClientSnippet('claude', server);
    expect(line.startsWith('claude mcp add --scope user tabpilot -- ')).toBe(true);
    // The shell prints each word it read, NUL-terminated.
    const words = execFileSync('sh', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' })
      .split('\0')
      .slice(0, -1);
    expect(words).toEqual([
      'claude',
      'mcp',
      'add',
      '--scope',
      'user',
      'tabpilot',
      '--',
      server.command,
      ...server.args,
    ]);
  });

  it('Cursor: mcpServers with command and args', () => {
    expect(JSON.parse(mcpClientSnippet('cursor', server))).toEqual({
      mcpServers: { tabpilot: { command: server.command, args: server.args } },
    });
  });

  it('VS Code: servers with type stdio', () => {
    expect(JSON.parse(mcpClientSnippet('vscode', server))).toEqual({
      servers: { tabpilot: { type: 'stdio', command: server.command, args: server.args } },
    });
  });

  it('Codex: an [mcp_servers.tabpilot] table, its strings escaped as TOML basic strings', () => {
    expect(mcpClientSnippet('codex', server)).toBe(
      [
        '[mcp_servers.tabpilot]',
        'command = "/opt/my node/bin/node"',
        'args = ["/home/o\'neil/tabpilot\\\\bin/tabpilot.mjs", "mcp", "--launch"]',
      ].join('\n'),
    );
  });

  it('the README form: the bare tabpilot command in every client', () => {
    const bare = { command: 'tabpilot', args: ['mcp'] };
    expect(MCP_CLIENTS.map((client) => mcpClientSnippet(client, bare))).toEqual([
      'claude mcp add --scope user tabpilot -- tabpilot mcp',
      '{\n  "mcpServers": {\n    "tabpilot": {\n      "command": "tabpilot",\n      "args": [\n        "mcp"\n      ]\n    }\n  }\n}',
      '{\n  "servers": {\n    "tabpilot": {\n      "type": "stdio",\n      "command": "tabpilot",\n      "args": [\n        "mcp"\n      ]\n    }\n  }\n}',
      '[mcp_servers.tabpilot]\ncommand = "tabpilot"\nargs = ["mcp"]',
    ]);
  });

  it('quotes only the shell words that need it', () => {
    expect(shellWord('/usr/bin/node')).toBe('/usr/bin/node');
    expect(shellWord('a b')).toBe("'a b'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord('$HOME')).toBe("'$HOME'");
  });
});
