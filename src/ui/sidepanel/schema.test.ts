import { describe, expect, it } from 'vitest';
import { emptyValueOf, jsonFromText, numberFromText, shapeOf, withKey } from './schema';

describe('JSON Schema fields', () => {
  it('picks a widget for each kind zod produces', () => {
    expect(shapeOf({ type: 'boolean' }).kind).toBe('boolean');
    expect(shapeOf({ type: 'string', enum: ['load', 'commit'] }).kind).toBe('enum');
    expect(shapeOf({ type: 'integer', minimum: 1 }).kind).toBe('integer');
    expect(shapeOf({ type: 'object', properties: { a: {} } }).kind).toBe('object');
    expect(shapeOf({ type: 'object', additionalProperties: { type: 'number' } }).kind).toBe('record');
    // A list of simple values is edited as a list; a list of objects stays JSON.
    expect(shapeOf({ type: 'array', items: { type: 'string' } }).kind).toBe('list');
    expect(shapeOf({ type: 'array', items: { type: 'object', properties: { a: {} } } }).kind).toBe('json');
    expect(shapeOf({}).kind).toBe('json');
  });

  it('sees a nullable field through anyOf with null, keeping its description and default', () => {
    const shape = shapeOf({
      anyOf: [{ type: 'object', properties: { width: { type: 'integer' } } }, { type: 'null' }],
      description: 'Emulated viewport',
      default: null,
    });
    expect(shape).toMatchObject({ kind: 'object', nullable: true, schema: { description: 'Emulated viewport' } });
    expect(shapeOf({ type: ['string', 'null'] })).toMatchObject({ kind: 'string', nullable: true });
  });

  it('turns text into values and leaves the judging to the worker', () => {
    expect(numberFromText(' 42 ')).toBe(42);
    expect(numberFromText('')).toBeUndefined();
    expect(numberFromText('abc')).toBe('abc');
    expect(jsonFromText('[1, 2]')).toEqual([1, 2]);
    expect(jsonFromText('[1,')).toBe('[1,');
    expect(jsonFromText(' ')).toBeUndefined();
  });

  it('gives new record entries an empty value and removes keys set to undefined', () => {
    expect(emptyValueOf({ type: 'object', additionalProperties: { type: 'string' } })).toEqual({});
    expect(emptyValueOf({ type: 'string' })).toBe('');
    expect(emptyValueOf({ type: 'integer', default: 5 })).toBe(5);
    expect(withKey({ a: 1, b: 2 }, 'a', undefined)).toEqual({ b: 2 });
    expect(withKey({ a: 1 }, 'c', 3)).toEqual({ a: 1, c: 3 });
  });
});
