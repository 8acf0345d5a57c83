import { isOneOf } from '../../../shared/narrow';

/**
 * The snippet each coding agent takes to start `tabpilot mcp` (`tabpilot mcp --print-config CLIENT`). The
 * generated docs/reference/mcp-clients.md comes from here too (with the bare `tabpilot` command), so the
 * two cannot drift apart.
 */

export const MCP_CLIENTS = ['claude', 'cursor', 'vscode', 'codex'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** The program a client starts and its arguments. */
export interface ServerCommand {
  command: string;
  args: string[];
}

/** The name the server is registered under in every client's config. */
export const SERVER_NAME = 'tabpilot';

export function isMcpClient(name: string): name is McpClient {
  return isOneOf(MCP_CLIENTS, name);
}

/** Where each client reads the snippet from, said to the person on stderr (stdout carries the snippet only). */
export const CLIENT_CONFIG_PLACE: Record<McpClient, string> = {
  claude: 'run it in a shell (Claude Code; --scope user: every project; --scope project writes .mcp.json)',
  cursor: 'merge it into ~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project)',
  vscode: 'merge it into .vscode/mcp.json (one workspace), or run "MCP: Open User Configuration"',
  codex: 'append it to ~/.codex/config.toml (or .codex/config.toml of a trusted project)',
};

/**
 * The exact text for `client`. JSON snippets parse; the Codex one is a TOML table whose strings are
 * JSON-quoted, which is a valid TOML basic string (the same escapes, \uXXXX included).
 */
export function mcpClientSnippet(client: McpClient, server: ServerCommand): string {
  switch (client) {
    case 'claude':
      return ['claude', 'mcp', 'add', '--scope', 'user', SERVER_NAME, '--', server.command, ...server.args]
        .map(shellWord)
        .join(' ');
    case 'cursor':
      return json({ mcpServers: { [SERVER_NAME]: { command: server.command, args: server.args } } });
    case 'vscode':
      return json({ servers: { [SERVER_NAME]: { type: 'stdio', command: server.command, args: server.args } } });
    case 'codex':
      return [
        `[mcp_servers.${SERVER_NAME}]`,
        `command = ${JSON.stringify(server.command)}`,
        `args = [${server.args.map((arg) => JSON.stringify(arg)).join(', ')}]`,
      ].join('\n');
  }
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** A word as a POSIX shell reads it back: bare when it is plainly safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
