import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, type DecodedFrame } from './frame-codec';

function texts(frames: DecodedFrame[]): string[] {
  return frames.map((frame) => (frame.kind === 'frame' ? frame.text : frame.kind));
}

describe('native frame codec', () => {
  it('hands out every complete frame of one read (two frames in one chunk are both handled)', () => {
    const decoder = new FrameDecoder(1024);
    const chunk = Buffer.concat([encodeFrame('{"a":1}'), encodeFrame('{"b":"é"}'), encodeFrame('{"c"').subarray(0, 3)]);
    expect(texts(decoder.push(chunk))).toEqual(['{"a":1}', '{"b":"é"}']);
    expect(decoder.pendingBytes).toBe(3);
  });

  it('reassembles frames fed one byte at a time', () => {
    const decoder = new FrameDecoder(1024);
    const stream = Buffer.concat([encodeFrame('{"x":"漢字"}'), encodeFrame('[]')]);
    const out: DecodedFrame[] = [];
    for (const byte of stream) {
      out.push(...decoder.push(Buffer.from([byte])));
    }
    expect(texts(out)).toEqual(['{"x":"漢字"}', '[]']);
    expect(decoder.pendingBytes).toBe(0);
  });

  it('skips an oversized frame without buffering it and reads the frame after it', () => {
    const decoder = new FrameDecoder(16);
    const big = encodeFrame('x'.repeat(100));
    const out = [
      ...decoder.push(big.subarray(0, 50)),
      ...decoder.push(Buffer.concat([big.subarray(50), encodeFrame('{}')])),
    ];
    expect(out[0]).toEqual({ kind: 'oversized', bytes: 100 });
    expect(texts(out.slice(1))).toEqual(['{}']);
  });

  it('reports a well-framed body that is not UTF-8 and goes on', () => {
    const decoder = new FrameDecoder(64);
    const header = encodeFrame('ab').subarray(0, 4);
    const out = decoder.push(Buffer.concat([header, Buffer.from([0xff, 0xfe]), encodeFrame('1')]));
    expect(out).toEqual([
      { kind: 'bad_utf8', bytes: 2 },
      { kind: 'frame', text: '1' },
    ]);
  });
});
