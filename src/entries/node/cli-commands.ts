/**
 * The CLI's commands as data: what `tabpilot help` prints, what the router knows, and what shell
 * completion offers. Nothing here loads a browser, an MCP server or a model: the lean entry reads it.
 */

import { MCP_CLIENTS } from '../../platform/node/mcp/client-config';

export interface CommandOption {
  /** As typed: `--cdp-url`. */
  readonly flag: string;
  /** What the option's value is (`URL`); absent for a flag. */
  readonly value?: string;
  /** The values it takes, when they are a few (completion offers them). */
  readonly choices?: readonly string[];
  readonly about: string;
}

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  /** The whole help; undefined when the full CLI prints it (its text lives with its parser). */
  readonly usage: string | undefined;
  readonly options: readonly CommandOption[];
  /** Words completion offers after the command (a shell's name, a help topic). */
  readonly words?: 'shells' | 'topics';
  /** Run by the full CLI (a browser, a server, the host), not by the lean entry. */
  readonly full: boolean;
  /** Left out of the command list and of completion (the browser starts it). */
  readonly hidden?: boolean;
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

const CLIENT: CommandOption = {
  flag: '--client',
  value: 'NAME',
  about: 'the client name the extension shows: tabpilot, tabpilot:<label> or mcp:<name> (default tabpilot)',
};
const PROFILE: CommandOption = {
  flag: '--user-data-dir',
  value: 'DIR',
  about: 'the host of that browser profile, when several run',
};
const CONFIG: CommandOption = { flag: '--config', value: 'FILE', about: 'a tabpilot config file (JSON)' };
const HEADLESS: CommandOption = { flag: '--headless', about: 'no window' };
const HEADED: CommandOption = { flag: '--headed', about: 'a window, even without a display variable' };
const CDP_URL: CommandOption = {
  flag: '--cdp-url',
  value: 'URL',
  about: "a running Chromium's ws:// or http://host:port endpoint, or a browser pool's",
};
const BROWSER: CommandOption = {
  flag: '--browser',
  value: 'NAME',
  choices: ['chrome', 'chromium', 'edge', 'brave', 'vivaldi', 'arc', 'all'],
  about: 'which browsers',
};

/** Options of every action command (they go through the host). */
export const ACTION_OPTIONS: readonly CommandOption[] = [
  { flag: '--json', about: 'print the whole response as JSON' },
  { flag: '--outcome', about: 'print what an acting action changed, or why it did not work' },
  CLIENT,
  PROFILE,
  { flag: '--help', about: "print the action's params" },
];

export const EXIT_CODES =
  'Exit codes: 0 ok, 1 the command answered an error, 2 bad usage, 3 no host or the connection broke.';

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'launch',
    summary: 'launch a local Chromium and serve JSON-line commands for it on stdin/stdout',
    usage: `  tabpilot launch [--headless | --headed] [--user-data-dir DIR] [--remote-debugging-port N] [--config FILE]
      Launch a local Chromium (headless when there is no display) and serve tabpilot's command protocol
      for it: one JSON request per line on stdin, one JSON response per line on stdout; logs on stderr.

Example:  echo '{"id":1,"action":"navigate","params":{"url":"https://example.com"}}' | tabpilot launch
Send {"id":1,"action":"describe"} for every action and its parameters. Set TABPILOT_LOG_LEVEL=debug for more.`,
    options: [
      HEADLESS,
      HEADED,
      { flag: '--user-data-dir', value: 'DIR', about: 'the profile folder (default a temporary one)' },
      { flag: '--remote-debugging-port', value: 'N', about: 'the DevTools port (default any free one)' },
      CONFIG,
    ],
    full: true,
  },
  {
    name: 'connect',
    summary: 'attach to a running Chromium (--cdp-url) or your own browser (--extension); JSON lines',
    usage: `  tabpilot connect --cdp-url URL [--config FILE]
      Attach to a running Chromium: a ws:// URL, or http://host:port (resolved through /json/version),
      or a browser pool's endpoint with its token (e.g. 'ws://pool:3000/?token=...'): one browser each.
      The same JSON lines as tabpilot launch.
  tabpilot connect --extension [--client NAME] [--user-data-dir DIR]
      The same JSON lines, in the browser that runs the tabpilot extension, through its native host.`,
    options: [CDP_URL, CONFIG, { flag: '--extension', about: 'through the native host' }, CLIENT, PROFILE],
    full: true,
  },
  {
    name: 'run',
    summary: 'let a model do a task in the browser, step by step',
    usage: undefined,
    options: [
      { flag: '--launch', about: 'in a Chromium of its own' },
      HEADLESS,
      HEADED,
      CDP_URL,
      { flag: '--extension', about: "with the extension's agent, in your own browser" },
      { flag: '--model', value: 'NAME', about: 'the model' },
      { flag: '--base-url', value: 'URL', about: 'an OpenAI-compatible server' },
      { flag: '--provider', value: 'NAME', choices: ['openai', 'anthropic'], about: 'the API the model speaks' },
      { flag: '--api-key', value: 'KEY', about: 'the key (else OPENAI_API_KEY or ANTHROPIC_API_KEY)' },
      CONFIG,
      { flag: '--max-steps', value: 'N', about: 'steps before the run gives up' },
      { flag: '--yes', about: 'approve every risky action' },
      CLIENT,
      PROFILE,
    ],
    full: true,
  },
  {
    name: 'mcp',
    summary: 'an MCP server on stdio for coding agents',
    usage: undefined,
    options: [
      { flag: '--extension', about: 'drive your own browser through the extension (the default)' },
      PROFILE,
      CLIENT,
      { flag: '--launch', about: 'a Chromium of its own' },
      HEADLESS,
      HEADED,
      CDP_URL,
      { flag: '--tools', value: 'GROUPS', about: 'tool groups: page,tabs,content,files,session' },
      { flag: '--slim', about: 'a minimal tool set' },
      CONFIG,
      { flag: '--output-dir', value: 'DIR', about: 'where files go' },
      { flag: '--answer-chars', value: 'N', about: 'the longest answer' },
      {
        flag: '--print-config',
        value: 'CLIENT',
        choices: MCP_CLIENTS,
        about: "print that client's config snippet",
      },
    ],
    full: true,
  },
  {
    name: 'extension',
    summary: "print the built extension's folder and id, or write its store zip",
    usage: undefined,
    options: [{ flag: '--zip', value: 'FILE', about: 'write the Chrome Web Store zip' }],
    full: true,
  },
  {
    name: 'flow',
    summary: 'export a flow file as a Playwright Test file',
    usage: undefined,
    options: [{ flag: '--out', value: 'FILE', about: 'write it here instead of stdout' }],
    full: true,
  },
  {
    name: 'repl',
    summary: 'an interactive session through the native host',
    usage: `  tabpilot repl [--client NAME] [--user-data-dir DIR]
      An interactive session in the browser that runs the tabpilot extension: type an action as on the
      command line (navigate --url example.com), .json toggles JSON output, .help, .exit (or Ctrl-D).`,
    options: [CLIENT, PROFILE],
    full: true,
  },
  {
    name: 'install-host',
    summary: 'register the native host with the browsers installed here',
    usage: `  tabpilot install-host [--browser chrome|chromium|edge|brave|vivaldi|arc|all] [--user-data-dir DIR]
                        [--state-dir DIR] [--uninstall]
      Register the native host with the browsers installed here (or one profile folder).`,
    options: [
      BROWSER,
      { flag: '--user-data-dir', value: 'DIR', about: 'one profile folder instead of the browsers' },
      { flag: '--state-dir', value: 'DIR', about: "pin the host's state folder in the launcher" },
      { flag: '--uninstall', about: 'remove what install-host wrote' },
    ],
    full: true,
  },
  {
    name: 'doctor',
    summary: 'check each link between this command and the extension',
    usage: `  tabpilot doctor [--json] [--browser ...] [--user-data-dir DIR]
      Check each link: browser, extension, manifest, launcher, host start, socket, extension ping, tabpilot mcp.
      Exit 0 when every link holds, 1 when one is broken.`,
    options: [{ flag: '--json', about: 'the report as JSON' }, BROWSER, PROFILE],
    full: true,
  },
  {
    name: 'completion',
    summary: 'print a shell completion script (bash, zsh or fish)',
    usage: `  tabpilot completion bash|zsh|fish
      Print a completion script for commands, actions, their --params and the values of the few that
      take one of a list. Install it:
        bash:  echo 'source <(tabpilot completion bash)' >> ~/.bashrc
        zsh:   tabpilot completion zsh > "\${fpath[1]}/_tabpilot"   (then restart zsh)
        fish:  tabpilot completion fish > ~/.config/fish/completions/tabpilot.fish`,
    options: [],
    words: 'shells',
    full: false,
  },
  {
    name: 'help',
    summary: 'help on a command or an action',
    usage: `  tabpilot help [COMMAND | ACTION]
      The command list, or one command's options, or one action's params (as tabpilot ACTION --help).`,
    options: [],
    words: 'topics',
    full: false,
  },
  {
    name: 'host',
    summary: 'the native host itself (the browser starts it through the launcher install-host wrote)',
    usage: `  tabpilot host <origin>
      The native messaging host: the browser starts it (through the launcher tabpilot install-host
      wrote) and speaks frames on its stdin/stdout. Not a command to run by hand.`,
    options: [],
    full: true,
    hidden: true,
  },
];

export function commandSpec(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}

/**
 * The actions a person can run as `tabpilot <action>`: all but those a command of the same name
 * shadows (the protocol's `run` is `tabpilot run --extension`).
 */
export function runnableActions<T extends { name: string }>(actions: readonly T[]): T[] {
  return actions.filter((action) => commandSpec(action.name) === undefined);
}
