/**
 * Keys as the browser's Input domain wants them (US layout): key, code, Windows virtual key code and the
 * text a key types. Parses `send_keys` strings: named keys ("Enter", "esc"), chords ("Control+Shift+t",
 * "ControlOrMeta+a") and sequences of them ("Tab Tab Enter"); anything else is text to type.
 * `ControlOrMeta` (also `Mod`, `CmdOrCtrl`) is Meta when the *browser* runs on a Mac and Control
 * elsewhere, whatever machine tabpilot runs on (browser-use asks the host OS).
 */

export interface KeyDefinition {
  key: string;
  code: string;
  keyCode: number;
  /** What the key types (absent for keys that type nothing). */
  text?: string;
  /** 1 = left (modifiers), as DOM KeyboardEvent.location. */
  location?: number;
}

export type Modifier = 'Alt' | 'Control' | 'Meta' | 'Shift';
export type BrowserPlatform = 'mac' | 'other';

export type KeyStroke =
  { kind: 'chord'; modifiers: Modifier[]; key: KeyDefinition; label: string } | { kind: 'text'; text: string };

const MODIFIER_KEYS: Record<Modifier, KeyDefinition> = {
  Shift: { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 },
  Control: { key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 },
  Alt: { key: 'Alt', code: 'AltLeft', keyCode: 18, location: 1 },
  Meta: { key: 'Meta', code: 'MetaLeft', keyCode: 91, location: 1 },
};

const NAMED: Record<string, KeyDefinition> = {
  enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  arrowup: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  arrowdown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  arrowleft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  arrowright: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  home: { key: 'Home', code: 'Home', keyCode: 36 },
  end: { key: 'End', code: 'End', keyCode: 35 },
  pageup: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  pagedown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
  capslock: { key: 'CapsLock', code: 'CapsLock', keyCode: 20 },
  contextmenu: { key: 'ContextMenu', code: 'ContextMenu', keyCode: 93 },
  ...Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [`f${i + 1}`, { key: `F${i + 1}`, code: `F${i + 1}`, keyCode: 112 + i }]),
  ),
};

const NAMED_ALIASES: Record<string, string> = {
  return: 'enter',
  del: 'delete',
  esc: 'escape',
  up: 'arrowup',
  down: 'arrowdown',
  left: 'arrowleft',
  right: 'arrowright',
  pgup: 'pageup',
  pgdn: 'pagedown',
};

const MODIFIER_ALIASES: Record<string, Modifier | 'ControlOrMeta'> = {
  shift: 'Shift',
  ctrl: 'Control',
  control: 'Control',
  alt: 'Alt',
  option: 'Alt',
  opt: 'Alt',
  meta: 'Meta',
  cmd: 'Meta',
  command: 'Meta',
  super: 'Meta',
  win: 'Meta',
  controlormeta: 'ControlOrMeta',
  cmdorctrl: 'ControlOrMeta',
  commandorcontrol: 'ControlOrMeta',
  mod: 'ControlOrMeta',
};

/** Characters of a US keyboard: [unshifted, shifted, code, keyCode]. */
const SYMBOL_ROWS: ReadonlyArray<[string, string, string, number]> = [
  ['-', '_', 'Minus', 189],
  ['=', '+', 'Equal', 187],
  ['[', '{', 'BracketLeft', 219],
  [']', '}', 'BracketRight', 221],
  ['\\', '|', 'Backslash', 220],
  [';', ':', 'Semicolon', 186],
  ["'", '"', 'Quote', 222],
  [',', '<', 'Comma', 188],
  ['.', '>', 'Period', 190],
  ['/', '?', 'Slash', 191],
  ['`', '~', 'Backquote', 192],
];
const SHIFTED_DIGITS = ')!@#$%^&*(';

/** The key that types `char` on a US keyboard and whether Shift is held; undefined when none does. */
export function keyForChar(char: string): { key: KeyDefinition; shift: boolean } | undefined {
  if (char === '\n' || char === '\r') {
    return { key: NAMED['enter'] as KeyDefinition, shift: false };
  }
  if (char === '\t') {
    return { key: NAMED['tab'] as KeyDefinition, shift: false };
  }
  if (char === ' ') {
    return { key: NAMED['space'] as KeyDefinition, shift: false };
  }
  if (/^[a-z]$/.test(char)) {
    const upper = char.toUpperCase();
    return { key: { key: char, code: `Key${upper}`, keyCode: upper.charCodeAt(0), text: char }, shift: false };
  }
  if (/^[A-Z]$/.test(char)) {
    return { key: { key: char, code: `Key${char}`, keyCode: char.charCodeAt(0), text: char }, shift: true };
  }
  if (/^[0-9]$/.test(char)) {
    return { key: { key: char, code: `Digit${char}`, keyCode: char.charCodeAt(0), text: char }, shift: false };
  }
  const digit = SHIFTED_DIGITS.indexOf(char);
  if (digit >= 0) {
    return { key: { key: char, code: `Digit${digit}`, keyCode: 48 + digit, text: char }, shift: true };
  }
  for (const [plain, shifted, code, keyCode] of SYMBOL_ROWS) {
    if (char === plain || char === shifted) {
      return { key: { key: char, code, keyCode, text: char }, shift: char === shifted };
    }
  }
  return undefined;
}

export function namedKey(name: string): KeyDefinition | undefined {
  const lower = name.toLowerCase();
  return NAMED[NAMED_ALIASES[lower] ?? lower];
}

function modifierOf(name: string, platform: BrowserPlatform): Modifier | undefined {
  const alias = MODIFIER_ALIASES[name.toLowerCase()];
  if (alias === 'ControlOrMeta') {
    return platform === 'mac' ? 'Meta' : 'Control';
  }
  return alias;
}

/** A lone modifier pressed as a key ("Shift"), a named key, or undefined. */
function standaloneKey(token: string, platform: BrowserPlatform): KeyDefinition | undefined {
  const modifier = modifierOf(token, platform);
  return modifier === undefined ? namedKey(token) : MODIFIER_KEYS[modifier];
}

function parseChord(token: string, platform: BrowserPlatform): KeyStroke | undefined {
  const single = standaloneKey(token, platform);
  if (single !== undefined) {
    return { kind: 'chord', modifiers: [], key: single, label: single.key === ' ' ? 'Space' : single.key };
  }
  // "Control+Shift+t"; "Control++" presses the plus key.
  const match = /^(.+?)\+(.+)$/.exec(token.endsWith('++') ? `${token.slice(0, -2)}+PLUS` : token);
  if (match === null) {
    return undefined;
  }
  const parts = `${match[1]}+${match[2]}`.split('+');
  const last = parts.pop() ?? '';
  const modifiers: Modifier[] = [];
  for (const part of parts) {
    const modifier = modifierOf(part, platform);
    if (modifier === undefined) {
      return undefined;
    }
    if (!modifiers.includes(modifier)) {
      modifiers.push(modifier);
    }
  }
  const mainChar = last === 'PLUS' ? '+' : last;
  let key = standaloneKey(mainChar, platform);
  if (key === undefined && [...mainChar].length === 1) {
    const typed = keyForChar(modifiers.includes('Shift') ? mainChar.toUpperCase() : mainChar);
    key = typed?.key ?? { key: mainChar, code: '', keyCode: 0, text: mainChar };
  }
  if (key === undefined) {
    return undefined;
  }
  return { kind: 'chord', modifiers, key, label: [...modifiers, key.key === ' ' ? 'Space' : key.key].join('+') };
}

/**
 * Keys or text: when every space-separated token is a named key or a chord, a sequence of key strokes;
 * otherwise the whole string is text to type ("hello world", "a").
 */
export function parseKeys(input: string, platform: BrowserPlatform): KeyStroke[] {
  const tokens = input
    .trim()
    .split(/\s+/)
    .filter((token) => token !== '');
  if (tokens.length > 0) {
    const strokes = tokens.map((token) => parseChord(token, platform));
    if (strokes.every((stroke): stroke is KeyStroke => stroke !== undefined)) {
      return strokes;
    }
  }
  return [{ kind: 'text', text: input }];
}

/** Editing shortcuts that a Mac browser maps to commands itself (CDP key events alone do not run them). */
const MAC_COMMANDS: Record<string, string> = {
  'Meta+KeyA': 'selectAll',
  'Meta+KeyC': 'copy',
  'Meta+KeyX': 'cut',
  'Meta+KeyV': 'paste',
  'Meta+KeyZ': 'undo',
  'Meta+Shift+KeyZ': 'redo',
};

export function macCommands(modifiers: readonly Modifier[], key: KeyDefinition): string[] {
  const name = [...modifiers].sort().join('+');
  const command = MAC_COMMANDS[`${name}+${key.code}`];
  return command === undefined ? [] : [command];
}

export function modifierKey(modifier: Modifier): KeyDefinition {
  return MODIFIER_KEYS[modifier];
}

export function platformOf(navigatorPlatform: string): BrowserPlatform {
  return /^(mac|iphone|ipad|ipod)/i.test(navigatorPlatform) ? 'mac' : 'other';
}
