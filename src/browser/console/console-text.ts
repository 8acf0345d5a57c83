import type { Protocol } from 'devtools-protocol';

/** What one message's text keeps; past it the text is cut and says how much went (a page may log megabytes). */
export const MESSAGE_TEXT_CHARS = 2_000;
/** The frames a stack keeps: the few nearest the throw say where; the rest cost tokens. */
export const STACK_FRAMES = 10;
/** The properties or items an object's preview shows before it is cut. */
const PREVIEW_ITEMS = 5;

type RemoteObject = Protocol.Runtime.RemoteObject;

/** A text cut at `max` characters, saying how many more there were. */
export function capped(text: string, max: number = MESSAGE_TEXT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * One console argument, briefly, as DevTools would show it folded: strings as they are, numbers and the
 * like as written, objects by their preview (`{a: 1, b: "x"}`, `[1, 2]`) or their description
 * (`HTMLDivElement`, `Map(2)`), errors by their description (the message and V8's stack).
 */
export function renderArgument(value: RemoteObject): string {
  switch (value.type) {
    case 'string':
      return typeof value.value === 'string' ? value.value : (value.description ?? '');
    case 'undefined':
      return 'undefined';
    case 'number':
    case 'boolean':
    case 'bigint':
      return value.unserializableValue ?? String(value.value);
    case 'symbol':
      return value.description ?? 'Symbol()';
    case 'function':
      return `ƒ ${firstLine(value.description ?? '')}`;
    case 'object':
      return renderObject(value);
  }
}

function renderObject(value: RemoteObject): string {
  if (value.subtype === 'null') {
    return 'null';
  }
  if (value.subtype === 'error') {
    return value.description ?? 'Error';
  }
  const preview = value.preview;
  if (preview === undefined || value.subtype === 'node' || value.subtype === 'regexp' || value.subtype === 'date') {
    return value.description ?? value.className ?? 'Object';
  }
  const more = preview.overflow || preview.properties.length > PREVIEW_ITEMS ? ', …' : '';
  if (value.subtype === 'array' || value.subtype === 'typedarray') {
    const items = preview.properties.slice(0, PREVIEW_ITEMS).map(renderProperty);
    return `[${items.join(', ')}${more}]`;
  }
  if (preview.entries !== undefined) {
    // A Map or Set: its entries say more than its (empty) own properties.
    const entries = preview.entries
      .slice(0, PREVIEW_ITEMS)
      .map((entry) =>
        entry.key === undefined
          ? renderPreview(entry.value)
          : `${renderPreview(entry.key)} => ${renderPreview(entry.value)}`,
      );
    const cut = preview.overflow || preview.entries.length > PREVIEW_ITEMS ? ', …' : '';
    return `${value.description ?? 'Object'} {${entries.join(', ')}${cut}}`;
  }
  const fields = preview.properties
    .slice(0, PREVIEW_ITEMS)
    .map((property) => `${property.name}: ${renderProperty(property)}`);
  const prefix = value.className === undefined || value.className === 'Object' ? '' : `${value.className} `;
  return `${prefix}{${fields.join(', ')}${more}}`;
}

function renderProperty(property: Protocol.Runtime.PropertyPreview): string {
  if (property.type === 'string') {
    return JSON.stringify(property.value ?? '');
  }
  if (property.type === 'object' && property.subtype !== 'null') {
    // A nested object's preview is not given: its short description (`Object`, `Array(3)`) stands in.
    return property.value ?? 'Object';
  }
  return property.value ?? property.type;
}

function renderPreview(preview: Protocol.Runtime.ObjectPreview): string {
  if (preview.type === 'string') {
    return JSON.stringify(preview.description ?? '');
  }
  return preview.description ?? preview.type;
}

/**
 * The arguments of a console call as one text: a first string argument with format specifiers (%s, %d,
 * %i, %f, %o, %O, %c) takes the arguments after it in turn, %c's styling dropped; the rest follow,
 * space-separated, as the console does.
 */
export function renderArguments(args: readonly RemoteObject[]): string {
  const [first, ...rest] = args;
  if (first === undefined) {
    return '';
  }
  if (first.type !== 'string' || typeof first.value !== 'string' || !first.value.includes('%')) {
    return args.map(renderArgument).join(' ');
  }
  const remaining = [...rest];
  const head = first.value.replace(/%([sdifoOc%])/g, (whole, spec: string) => {
    if (spec === '%') {
      return '%';
    }
    const next = remaining.shift();
    if (next === undefined) {
      return whole;
    }
    if (spec === 'c') {
      return '';
    }
    if ((spec === 'd' || spec === 'i') && next.type === 'number' && typeof next.value === 'number') {
      return String(Math.trunc(next.value));
    }
    return renderArgument(next);
  });
  return [head, ...remaining.map(renderArgument)].join(' ');
}

/** A stack as V8 prints one (`    at fn (url:line:column)`, 1-based), its nearest STACK_FRAMES frames. */
export function renderStack(stack: Protocol.Runtime.StackTrace | undefined): string | null {
  if (stack === undefined || stack.callFrames.length === 0) {
    return null;
  }
  const frames = stack.callFrames
    .slice(0, STACK_FRAMES)
    .map(
      (frame) =>
        `    at ${frame.functionName === '' ? '<anonymous>' : frame.functionName} (${frame.url}:${frame.lineNumber + 1}:${frame.columnNumber + 1})`,
    );
  const more = stack.callFrames.length - STACK_FRAMES;
  return more > 0 ? [...frames, `    … ${more} more frames`].join('\n') : frames.join('\n');
}

export function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end === -1 ? text : text.slice(0, end);
}
