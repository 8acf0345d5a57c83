import type { CdpSession } from '../../cdp/session';
import type { Protocol } from '../../protocol/cdp';
import { callInFrame } from './in-page-call';
import {
  keyForChar,
  macCommands,
  modifierKey,
  platformOf,
  type BrowserPlatform,
  type KeyDefinition,
  type KeyStroke,
  type Modifier,
} from './keys';
import { modifierMask } from './mouse';

/**
 * Trusted keyboard input on a tab's top-level session: it reaches the focused element of the focused
 * frame (OOPIFs included). The events of one call are pipelined; the browser keeps their order.
 */

/** The platform a tab's browser said it runs on, kept by the tab's session (asked once per tab). */
class KnownPlatform {
  value: BrowserPlatform | undefined;
}

/** The platform of the browser the page runs in (navigator.platform), asked once per tab. */
export async function browserPlatform(pageSession: CdpSession): Promise<BrowserPlatform> {
  const known = pageSession.own(KnownPlatform);
  known.value ??= platformOf(await callInFrame(pageSession, 'platform'));
  return known.value;
}

type KeyEvent = Protocol.Input.DispatchKeyEventRequest;

function down(key: KeyDefinition, modifiers: number, withText: boolean, commands: string[] = []): KeyEvent {
  const text = withText ? key.text : undefined;
  return {
    type: text === undefined ? 'rawKeyDown' : 'keyDown',
    key: key.key,
    code: key.code,
    windowsVirtualKeyCode: key.keyCode,
    modifiers,
    ...(text === undefined ? {} : { text, unmodifiedText: text }),
    ...(key.location === undefined ? {} : { location: key.location }),
    ...(commands.length === 0 ? {} : { commands }),
  };
}

function up(key: KeyDefinition, modifiers: number): KeyEvent {
  return {
    type: 'keyUp',
    key: key.key,
    code: key.code,
    windowsVirtualKeyCode: key.keyCode,
    modifiers,
    ...(key.location === undefined ? {} : { location: key.location }),
  };
}

/** The events that type `text` key by key; characters no US key types go in as text (insertText). */
function typingEvents(text: string): Array<KeyEvent | { insert: string }> {
  const events: Array<KeyEvent | { insert: string }> = [];
  for (const char of text) {
    const typed = keyForChar(char);
    if (typed === undefined) {
      events.push({ insert: char });
      continue;
    }
    const modifiers = typed.shift ? modifierMask(['Shift']) : 0;
    events.push(down(typed.key, modifiers, true), up(typed.key, modifiers));
  }
  return events;
}

function chordEvents(modifiers: readonly Modifier[], key: KeyDefinition, platform: BrowserPlatform): KeyEvent[] {
  const events: KeyEvent[] = [];
  const held: Modifier[] = [];
  for (const modifier of modifiers) {
    held.push(modifier);
    events.push(down(modifierKey(modifier), modifierMask(held), false));
  }
  const mask = modifierMask(modifiers);
  // A shortcut types nothing; Shift alone still types ("Shift+a" is "A").
  const types = !modifiers.some((modifier) => modifier !== 'Shift');
  const commands = platform === 'mac' ? macCommands(modifiers, key) : [];
  events.push(down(key, mask, types, commands), up(key, mask));
  for (const modifier of [...modifiers].reverse()) {
    held.pop();
    events.push(up(modifierKey(modifier), modifierMask(held)));
  }
  return events;
}

async function dispatch(session: CdpSession, events: ReadonlyArray<KeyEvent | { insert: string }>): Promise<void> {
  await Promise.all(
    events.map((event) =>
      'insert' in event
        ? session.send('Input.insertText', { text: event.insert })
        : session.send('Input.dispatchKeyEvent', event),
    ),
  );
}

/** Types text with a keyDown and keyUp per character (keypress and input follow from the keyDown's text). */
export async function typeWithKeys(pageSession: CdpSession, text: string): Promise<void> {
  await dispatch(pageSession, typingEvents(text));
}

/** Presses parsed key strokes in order: chords hold their modifiers around the main key. */
export async function pressStrokes(
  pageSession: CdpSession,
  strokes: readonly KeyStroke[],
  platform: BrowserPlatform,
): Promise<void> {
  const events: Array<KeyEvent | { insert: string }> = [];
  for (const stroke of strokes) {
    if (stroke.kind === 'text') {
      events.push(...typingEvents(stroke.text));
    } else {
      events.push(...chordEvents(stroke.modifiers, stroke.key, platform));
    }
  }
  await dispatch(pageSession, events);
}
