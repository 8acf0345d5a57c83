import type { Protocol } from 'devtools-protocol';
import { describe, expect, it } from 'vitest';
import { capped, MESSAGE_TEXT_CHARS, renderArgument, renderArguments, renderStack, STACK_FRAMES } from './console-text';

type RemoteObject = Protocol.Runtime.RemoteObject;

const str = (value: string): RemoteObject => ({ type: 'string', value });
const num = (value: number): RemoteObject => ({ type: 'number', value, description: String(value) });

describe('console argument rendering', () => {
  it('gives strings as they are and numbers, booleans and the unserializable as written', () => {
    expect(renderArgument(str('a "quoted" text'))).toBe('a "quoted" text');
    expect(renderArgument(num(42))).toBe('42');
    expect(renderArgument({ type: 'boolean', value: false })).toBe('false');
    expect(renderArgument({ type: 'number', unserializableValue: 'NaN' })).toBe('NaN');
    expect(renderArgument({ type: 'bigint', unserializableValue: '12n' })).toBe('12n');
    expect(renderArgument({ type: 'undefined' })).toBe('undefined');
    expect(renderArgument({ type: 'object', subtype: 'null', value: null })).toBe('null');
    expect(renderArgument({ type: 'symbol', description: 'Symbol(id)' })).toBe('Symbol(id)');
    expect(renderArgument({ type: 'function', description: 'function go(a) {\n  return a;\n}' })).toBe(
      'ƒ function go(a) {',
    );
  });

  it('gives objects by their preview, arrays as lists, maps by their entries, cut after five', () => {
    expect(
      renderArgument({
        type: 'object',
        className: 'Object',
        description: 'Object',
        preview: {
          type: 'object',
          overflow: false,
          properties: [
            { name: 'a', type: 'number', value: '1' },
            { name: 'b', type: 'string', value: 'x' },
            { name: 'c', type: 'object', value: 'Array(3)', subtype: 'array' },
            { name: 'd', type: 'object', value: 'null', subtype: 'null' },
          ],
        },
      }),
    ).toBe('{a: 1, b: "x", c: Array(3), d: null}');
    expect(
      renderArgument({
        type: 'object',
        subtype: 'array',
        className: 'Array',
        description: 'Array(7)',
        preview: {
          type: 'object',
          subtype: 'array',
          overflow: false,
          properties: ['1', '2', '3', '4', '5', '6', '7'].map((value, index) => ({
            name: String(index),
            type: 'number' as const,
            value,
          })),
        },
      }),
    ).toBe('[1, 2, 3, 4, 5, …]');
    expect(
      renderArgument({
        type: 'object',
        subtype: 'map',
        className: 'Map',
        description: 'Map(1)',
        preview: {
          type: 'object',
          subtype: 'map',
          overflow: false,
          properties: [],
          entries: [
            {
              key: { type: 'string', description: 'k', overflow: false, properties: [] },
              value: { type: 'number', description: '2', overflow: false, properties: [] },
            },
          ],
        },
      }),
    ).toBe('Map(1) {"k" => 2}');
    expect(
      renderArgument({
        type: 'object',
        className: 'Point',
        description: 'Point',
        preview: { type: 'object', overflow: true, properties: [{ name: 'x', type: 'number', value: '1' }] },
      }),
    ).toBe('Point {x: 1, …}');
  });

  it('gives elements, dates and objects without a preview by their description, errors with their stack', () => {
    expect(
      renderArgument({ type: 'object', subtype: 'node', className: 'HTMLDivElement', description: 'div#app' }),
    ).toBe('div#app');
    expect(renderArgument({ type: 'object', className: 'Window', description: 'Window' })).toBe('Window');
    expect(
      renderArgument({
        type: 'object',
        subtype: 'error',
        className: 'Error',
        description: 'Error: nope\n    at f (app.js:1:1)',
      }),
    ).toBe('Error: nope\n    at f (app.js:1:1)');
  });

  it('joins the arguments with spaces, applying the format specifiers of a first string', () => {
    expect(renderArguments([str('count'), num(3), str('done')])).toBe('count 3 done');
    expect(renderArguments([str('%s has %d items (%i%%)'), str('cart'), num(2.7), num(50), str('extra')])).toBe(
      'cart has 2 items (50%) extra',
    );
    expect(renderArguments([str('%cstyled'), str('color: red')])).toBe('styled');
    expect(renderArguments([str('%s and %s'), str('one')])).toBe('one and %s');
    expect(renderArguments([num(1), str('%s')])).toBe('1 %s');
    expect(renderArguments([])).toBe('');
  });

  it('cuts a long text, saying how much went', () => {
    const long = 'x'.repeat(MESSAGE_TEXT_CHARS + 10);
    expect(capped(long)).toBe(`${'x'.repeat(MESSAGE_TEXT_CHARS)}… (10 more characters)`);
    expect(capped('short')).toBe('short');
  });

  it('prints a stack as V8 does, 1-based, its nearest frames', () => {
    const frame = (functionName: string, lineNumber: number): Protocol.Runtime.CallFrame => ({
      functionName,
      scriptId: '1',
      url: 'http://site/app.js',
      lineNumber,
      columnNumber: 4,
    });
    expect(renderStack({ callFrames: [frame('explode', 5), frame('', 9)] })).toBe(
      '    at explode (http://site/app.js:6:5)\n    at <anonymous> (http://site/app.js:10:5)',
    );
    const deep = renderStack({ callFrames: Array.from({ length: STACK_FRAMES + 3 }, (_, i) => frame(`f${i}`, i)) });
    expect(deep?.split('\n')).toHaveLength(STACK_FRAMES + 1);
    expect(deep?.endsWith('… 3 more frames')).toBe(true);
    expect(renderStack(undefined)).toBeNull();
    expect(renderStack({ callFrames: [] })).toBeNull();
  });
});
