import { describe, expect, it } from 'vitest';
import { keyForChar, macCommands, namedKey, parseKeys, platformOf, type KeyStroke } from './keys';

function labels(strokes: KeyStroke[]): string[] {
  return strokes.map((stroke) => (stroke.kind === 'chord' ? stroke.label : `text:${stroke.text}`));
}

describe('key parsing', () => {
  it('reads named keys and their aliases, case-insensitively', () => {
    expect(labels(parseKeys('Enter', 'other'))).toEqual(['Enter']);
    expect(labels(parseKeys('esc', 'other'))).toEqual(['Escape']);
    expect(labels(parseKeys('RETURN', 'other'))).toEqual(['Enter']);
    expect(labels(parseKeys('pgdn', 'other'))).toEqual(['PageDown']);
    expect(labels(parseKeys('F12', 'other'))).toEqual(['F12']);
    expect(labels(parseKeys('space', 'other'))).toEqual(['Space']);
  });

  it('reads chords with modifiers in any case and alias, and sequences of keys', () => {
    expect(labels(parseKeys('ctrl+shift+t', 'other'))).toEqual(['Control+Shift+T']);
    expect(labels(parseKeys('Cmd+c', 'other'))).toEqual(['Meta+c']);
    expect(labels(parseKeys('option+ArrowLeft', 'other'))).toEqual(['Alt+ArrowLeft']);
    expect(labels(parseKeys('Tab Tab Enter', 'other'))).toEqual(['Tab', 'Tab', 'Enter']);
    expect(labels(parseKeys('Control++', 'other'))).toEqual(['Control++']);
    expect(labels(parseKeys('Shift', 'other'))).toEqual(['Shift']);
  });

  it("maps ControlOrMeta (and Mod, CmdOrCtrl) to the browser's platform, not the host's", () => {
    expect(labels(parseKeys('ControlOrMeta+a', 'other'))).toEqual(['Control+a']);
    expect(labels(parseKeys('ControlOrMeta+a', 'mac'))).toEqual(['Meta+a']);
    expect(labels(parseKeys('mod+z', 'mac'))).toEqual(['Meta+z']);
    expect(labels(parseKeys('CmdOrCtrl+v', 'other'))).toEqual(['Control+v']);
    expect(platformOf('MacIntel')).toBe('mac');
    expect(platformOf('iPhone')).toBe('mac');
    expect(platformOf('Linux x86_64')).toBe('other');
    expect(platformOf('Win32')).toBe('other');
  });

  it('treats anything that is not all keys as text to type', () => {
    expect(labels(parseKeys('hello world', 'other'))).toEqual(['text:hello world']);
    expect(labels(parseKeys('a', 'other'))).toEqual(['text:a']);
    expect(labels(parseKeys('Enter please', 'other'))).toEqual(['text:Enter please']);
    expect(labels(parseKeys('a+b', 'other'))).toEqual(['text:a+b']);
    expect(labels(parseKeys('+', 'other'))).toEqual(['text:+']);
  });

  it('gives each US character its key, code, key code and Shift', () => {
    expect(keyForChar('a')).toEqual({ key: { key: 'a', code: 'KeyA', keyCode: 65, text: 'a' }, shift: false });
    expect(keyForChar('Q')).toEqual({ key: { key: 'Q', code: 'KeyQ', keyCode: 81, text: 'Q' }, shift: true });
    expect(keyForChar('7')).toMatchObject({ key: { code: 'Digit7', keyCode: 55 }, shift: false });
    expect(keyForChar('@')).toMatchObject({ key: { code: 'Digit2', keyCode: 50, text: '@' }, shift: true });
    expect(keyForChar('"')).toMatchObject({ key: { code: 'Quote', keyCode: 222 }, shift: true });
    expect(keyForChar('\n')).toMatchObject({ key: { key: 'Enter', keyCode: 13, text: '\r' } });
    expect(keyForChar('é')).toBeUndefined();
    expect(namedKey('nope')).toBeUndefined();
  });

  it('adds the editing commands a Mac browser needs for its shortcuts', () => {
    const a = keyForChar('a')?.key;
    const z = keyForChar('z')?.key;
    expect(a && macCommands(['Meta'], a)).toEqual(['selectAll']);
    expect(z && macCommands(['Shift', 'Meta'], z)).toEqual(['redo']);
    expect(a && macCommands(['Control'], a)).toEqual([]);
  });
});
