import { describe, expect, it } from 'vitest';
import { ChunkJoiner, framesFor, utf8Length } from './native-chunks';
import { ChunkFrame } from './native-messages';

const encoder = new TextEncoder();

describe('native chunks', () => {
  it('measures UTF-8 like an encoder, surrogate pairs and lone halves included', () => {
    for (const text of ['plain', 'é', '€', '😀', 'a\ud800b', '\udc00', 'x'.repeat(1000) + '漢字😀']) {
      expect(utf8Length(text)).toBe(encoder.encode(text).length);
    }
  });

  it('sends a message that fits as one frame', () => {
    const frames = framesFor({ type: 'x', data: 'small' }, 1024, () => 'id');
    expect(frames).toEqual([JSON.stringify({ type: 'x', data: 'small' })]);
  });

  it('cuts a large message into frames under the limit and joins them back exactly', () => {
    const limit = 4096;
    const message = { type: 'response', payload: 'a"b\\c'.repeat(2000) + '漢字😀'.repeat(3000), n: [1, 2, 3] };
    const frames = framesFor(message, limit, () => 'm1');
    expect(frames.length).toBeGreaterThan(1);
    const joiner = new ChunkJoiner();
    let joined: unknown;
    for (const frame of frames) {
      expect(encoder.encode(frame).length).toBeLessThanOrEqual(limit);
      const chunk = ChunkFrame.parse(JSON.parse(frame));
      joined = joiner.add(chunk) ?? joined;
    }
    expect(joined).toEqual(message);
    expect(joiner.pending).toBe(0);
  });

  it('never cuts a surrogate pair in two', () => {
    const message = { s: '😀'.repeat(5000) };
    for (const frame of framesFor(message, 2048, () => 'p')) {
      const { data } = ChunkFrame.parse(JSON.parse(frame));
      const last = data.charCodeAt(data.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
    }
  });

  it('refuses chunks that do not fit together, and bounds what it holds', () => {
    const joiner = new ChunkJoiner({ maxMessages: 1, maxChars: 10 });
    joiner.add({ type: 'chunk', id: 'a', index: 0, total: 2, data: '{"' });
    expect(() => joiner.add({ type: 'chunk', id: 'a', index: 0, total: 2, data: 'x' })).toThrow(/does not fit/);
    joiner.add({ type: 'chunk', id: 'b', index: 0, total: 3, data: '1' });
    expect(() => joiner.add({ type: 'chunk', id: 'c', index: 0, total: 2, data: '2' })).toThrow(/too many/);
    expect(() => joiner.add({ type: 'chunk', id: 'b', index: 1, total: 3, data: 'x'.repeat(20) })).toThrow(/larger/);
    const bad = new ChunkJoiner();
    bad.add({ type: 'chunk', id: 'j', index: 1, total: 2, data: 'not' });
    expect(() => bad.add({ type: 'chunk', id: 'j', index: 0, total: 2, data: 'json' })).toThrow(/not JSON/);
  });
});
