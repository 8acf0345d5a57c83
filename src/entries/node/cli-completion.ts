import { enumValues, flagOf, type ActionCatalog, type ParamSchema } from '../../platform/node/native/cli-catalog';
import { ACTION_OPTIONS, COMMANDS, runnableActions, SHELLS } from './cli-commands';

/**
 * Shell completion generated from the command table and the action catalog: commands and actions in
 * first place, then each one's options or --params, then the values of those that take one of a list
 * (an enum); a value of any other kind falls back to the shell's file names.
 */

interface CompletionOption {
  flag: string;
  about: string;
  takesValue: boolean;
  choices: readonly string[] | undefined;
}

interface CompletionEntry {
  name: string;
  about: string;
  options: CompletionOption[];
  /** Words offered after it instead of options (completion's shells, help's topics). */
  words: readonly string[] | undefined;
}

export interface CompletionModel {
  entries: CompletionEntry[];
}

/** Words a shell script can hold unquoted (every name here; an odd enum value is left out). */
const PLAIN = /^[\w.:/@+-]+$/;

export function completionModel(catalog: ActionCatalog): CompletionModel {
  const commands = COMMANDS.filter((command) => command.hidden !== true);
  const actions = runnableActions(catalog.actions);
  const topics = [...commands.map((command) => command.name), ...actions.map((action) => action.name)];
  const entries: CompletionEntry[] = [
    ...commands.map((command) => ({
      name: command.name,
      about: command.summary,
      options: [
        ...command.options.map((option) => ({
          flag: option.flag,
          about: option.about,
          takesValue: option.value !== undefined,
          choices: option.choices,
        })),
        { flag: '--help', about: 'print this command’s help', takesValue: false, choices: undefined },
      ],
      words: command.words === 'shells' ? SHELLS : command.words === 'topics' ? topics : undefined,
    })),
    ...actions.map((action) => ({
      name: action.name,
      about: action.description,
      options: [
        ...Object.entries(action.params_schema.properties ?? {}).flatMap(([name, schema]) =>
          paramOptions(name, schema),
        ),
        ...ACTION_OPTIONS.map((option) => ({
          flag: option.flag,
          about: option.about,
          takesValue: option.value !== undefined,
          choices: option.choices,
        })),
      ],
      words: undefined,
    })),
  ];
  return { entries };
}

function paramOptions(name: string, schema: ParamSchema): CompletionOption[] {
  const about = schema.details ?? schema.description ?? '';
  if (isBoolean(schema)) {
    return [
      { flag: flagOf(name), about, takesValue: false, choices: undefined },
      { flag: `--no-${flagOf(name).slice(2)}`, about, takesValue: false, choices: undefined },
    ];
  }
  const choices = enumValues(schema)?.filter((value) => PLAIN.test(value));
  return [{ flag: flagOf(name), about, takesValue: true, choices: choices?.length === 0 ? undefined : choices }];
}

function isBoolean(schema: ParamSchema): boolean {
  if (schema.type !== undefined) {
    return schema.type === 'boolean';
  }
  const types = (schema.anyOf ?? []).map((option) => option.type).filter((type) => type !== 'null');
  return types.length > 0 && types.every((type) => type === 'boolean');
}

export function completionScript(shell: string, catalog: ActionCatalog): string {
  const model = completionModel(catalog);
  switch (shell) {
    case 'bash':
      return bashScript(model);
    case 'zsh':
      return zshScript(model);
    case 'fish':
      return fishScript(model);
    default:
      throw new Error(`no completion for the shell "${shell}" (the shells are ${SHELLS.join(', ')})`);
  }
}

/** The first sentence, short enough for a completion menu. */
function short(text: string): string {
  const first = text.split(/(?<=[.!?])\s|\n/)[0] ?? '';
  return first.length <= 70 ? first : `${first.slice(0, 69)}…`;
}

const TOP_FLAGS = ['--help', '--version'];

/** The loop every script runs: the command is the first word that is neither an option nor its value. */
function bashScript(model: CompletionModel): string {
  const top = [...model.entries.map((entry) => entry.name), ...TOP_FLAGS].join(' ');
  const cases = model.entries.map((entry) => {
    const lines = [`    ${entry.name})`];
    const chosen = entry.options.filter((option) => option.choices !== undefined);
    const free = entry.options.filter((option) => option.takesValue && option.choices === undefined);
    if (chosen.length > 0 || free.length > 0) {
      lines.push('      case "$prev" in');
      for (const option of chosen) {
        lines.push(
          `        ${option.flag}) COMPREPLY=($(compgen -W "${(option.choices ?? []).join(' ')}" -- "$cur")); return ;;`,
        );
      }
      if (free.length > 0) {
        lines.push(`        ${free.map((option) => option.flag).join('|')}) return ;;`);
      }
      lines.push('      esac');
    }
    const words = entry.words === undefined ? '' : `${entry.words.join(' ')} `;
    lines.push(`      words="${words}${entry.options.map((option) => option.flag).join(' ')}" ;;`);
    return lines.join('\n');
  });
  return `# tabpilot completion for bash: generated by \`tabpilot completion bash\` from its commands and action catalog.
# Install: echo 'source <(tabpilot completion bash)' >> ~/.bashrc
_tabpilot() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" command="" words="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      --client|--user-data-dir) ((i++)) ;;
      -*) ;;
      *) command="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  if [[ -z "$command" ]]; then
    case "$prev" in
      --client|--user-data-dir) return ;;
    esac
    COMPREPLY=($(compgen -W "${top}" -- "$cur"))
    return
  fi
  case "$command" in
${cases.join('\n')}
    *) return ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
# -o default: a value that is not one of a list (a URL, a file) completes as file names.
complete -o default -F _tabpilot tabpilot
`;
}

function zshQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

function zshItem(name: string, about: string): string {
  return zshQuote(`${name.replaceAll(':', '\\:')}:${short(about)}`);
}

function zshScript(model: CompletionModel): string {
  const top = [
    ...model.entries.map((entry) => zshItem(entry.name, entry.about)),
    zshItem('--help', 'the command list'),
    zshItem('--version', 'the version'),
  ];
  const cases = model.entries.map((entry) => {
    const lines = [`    ${entry.name})`];
    const chosen = entry.options.filter((option) => option.choices !== undefined);
    const free = entry.options.filter((option) => option.takesValue && option.choices === undefined);
    if (chosen.length > 0 || free.length > 0) {
      lines.push('      case "$prev" in');
      for (const option of chosen) {
        lines.push(`        ${option.flag}) compadd -- ${(option.choices ?? []).join(' ')}; return ;;`);
      }
      if (free.length > 0) {
        lines.push(`        ${free.map((option) => option.flag).join('|')}) _files; return ;;`);
      }
      lines.push('      esac');
    }
    if (entry.words !== undefined) {
      lines.push(`      compadd -- ${entry.words.join(' ')}`);
    }
    lines.push(
      `      items=(${entry.options.map((option) => zshItem(option.flag, option.about)).join(' ')})`,
      `      _describe -t options ${zshQuote(`${entry.name} options`)} items ;;`,
    );
    return lines.join('\n');
  });
  return `#compdef tabpilot
# tabpilot completion for zsh: generated by \`tabpilot completion zsh\` from its commands and action catalog.
# Install: tabpilot completion zsh > "\${fpath[1]}/_tabpilot" (then start a new zsh),
# or: source <(tabpilot completion zsh) in ~/.zshrc after compinit.
_tabpilot() {
  local command="" prev="\${words[CURRENT-1]}" i
  local -a items
  for ((i = 2; i < CURRENT; i++)); do
    case "\${words[i]}" in
      --client|--user-data-dir) ((i++)) ;;
      -*) ;;
      *) command="\${words[i]}"; break ;;
    esac
  done
  if [[ -z "$command" ]]; then
    case "$prev" in
      --client) return ;;
      --user-data-dir) _files -/; return ;;
    esac
    items=(${top.join(' ')})
    _describe -t commands 'tabpilot commands and actions' items
    return
  fi
  case "$command" in
${cases.join('\n')}
  esac
}
if [[ "\${funcstack[1]}" == _tabpilot ]]; then
  _tabpilot "$@"
else
  compdef _tabpilot tabpilot
fi
`;
}

function fishQuote(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function fishScript(model: CompletionModel): string {
  const lines = [
    '# tabpilot completion for fish: generated by `tabpilot completion fish` from its commands and action catalog.',
    '# Install: tabpilot completion fish > ~/.config/fish/completions/tabpilot.fish',
    'complete -c tabpilot -f',
    "complete -c tabpilot -n __fish_use_subcommand -l help -d 'the command list'",
    "complete -c tabpilot -n __fish_use_subcommand -l version -d 'the version'",
  ];
  for (const entry of model.entries) {
    lines.push(`complete -c tabpilot -n __fish_use_subcommand -a ${entry.name} -d ${fishQuote(short(entry.about))}`);
  }
  for (const entry of model.entries) {
    const when = `-n ${fishQuote(`__fish_seen_subcommand_from ${entry.name}`)}`;
    if (entry.words !== undefined) {
      lines.push(`complete -c tabpilot ${when} -a ${fishQuote(entry.words.join(' '))}`);
    }
    for (const option of entry.options) {
      const value =
        option.choices !== undefined
          ? ` -x -a ${fishQuote(option.choices.join(' '))}`
          : option.takesValue
            ? ' -r -F'
            : '';
      lines.push(
        `complete -c tabpilot ${when} -l ${option.flag.slice(2)}${value} -d ${fishQuote(short(option.about))}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
