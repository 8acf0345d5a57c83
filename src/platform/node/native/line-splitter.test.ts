import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter';

describe('LineSplitter', () => {
  it('splits lines across reads and keeps the unfinished rest', () => {
    const lines = new LineSplitter(100);
    expect(lines.push(Buffer.from('{"a":1}\n{"b"'))).toEqual([{ kind: 'line', text: '{"a":1}' }]);
    expect(lines.push(Buffer.from(':2}\n\n'))).toEqual([
      { kind: 'line', text: '{"b":2}' },
      { kind: 'line', text: '' },
    ]);
    expect(lines.end()).toEqual([]);
  });

  it('drops a line over the limit up to its newline, once, and reads the next', () => {
    const lines = new LineSplitter(8);
    expect(lines.push(Buffer.from('0123456789'))).toEqual([]);
    expect(lines.push(Buffer.from('abc\nok\n'))).toEqual([
      { kind: 'too_long', bytes: 13 },
      { kind: 'line', text: 'ok' },
    ]);
  });

  it('reports a line that is not UTF-8', () => {
    const lines = new LineSplitter(8);
    expect(lines.push(Buffer.from([0xc3, 0x28, 0x0a]))).toEqual([{ kind: 'bad_utf8' }]);
  });
});
