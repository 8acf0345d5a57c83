import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { HOST_TO_EXTENSION_MAX_BYTES } from '../../../protocol/native-messages';
import { createLogger } from '../../../shared/logger';
import { ChromeLink } from './chrome-link';
import { FrameDecoder, encodeFrame } from './frame-codec';

/** A pipe that Chrome drains slowly: every write is acknowledged a turn later, with a tiny buffer. */
function slowPipe(into: Buffer[]): Writable {
  return new Writable({
    highWaterMark: 64,
    write(chunk: Buffer, _encoding, done) {
      setImmediate(() => {
        into.push(chunk);
        done();
      });
    },
  });
}

describe('ChromeLink (the host side of the native port)', () => {
  it('queues frames while the pipe is full, says it is congested, and delivers them all in order', async () => {
    const written: Buffer[] = [];
    const pipe = slowPipe(written);
    const link = new ChromeLink(
      new PassThrough(),
      pipe,
      createLogger(() => undefined),
    );
    link.start({ message: () => undefined, bad: () => undefined, end: () => undefined });
    let sawCongestion = false;
    for (let seq = 0; seq < 200; seq++) {
      link.send({ type: 'ping', conn: 'c1', seq });
      sawCongestion ||= link.congested;
    }
    expect(sawCongestion).toBe(true);
    // Held back: far fewer frames than sent are in the pipe's own buffer.
    expect(link.framesOut).toBeLessThan(10);
    await link.flushed();
    await new Promise((resolve) => pipe.end(resolve));
    const decoder = new FrameDecoder(1024 * 1024);
    const seqs = decoder
      .push(Buffer.concat(written))
      .map((frame) => (frame.kind === 'frame' ? (JSON.parse(frame.text) as { seq: number }).seq : -1));
    expect(seqs).toEqual(Array.from({ length: 200 }, (_value, seq) => seq));
    expect(link.congested).toBe(false);
  });

  it('refuses a frame that is not a worker message, naming the field and zod’s words for it', async () => {
    const input = new PassThrough();
    const written: Buffer[] = [];
    const link = new ChromeLink(
      input,
      slowPipe(written),
      createLogger(() => undefined),
    );
    const bad: Array<{ code: string; reason: string }> = [];
    link.start({ message: () => undefined, bad: (code, reason) => bad.push({ code, reason }), end: () => undefined });
    input.write(encodeFrame(JSON.stringify({ type: 'pong', conn: 'c1', seq: 'one' })));
    await new Promise((resolve) => setImmediate(resolve));
    expect(bad).toHaveLength(1);
    expect(bad[0]?.code).toBe('INVALID_REQUEST');
    expect(bad[0]?.reason).toMatch(/^a frame is not a worker message: seq: Invalid input/);
  });

  it('sends a message over Chrome’s 1 MiB limit as chunks, each frame under it', async () => {
    const written: Buffer[] = [];
    const pipe = slowPipe(written);
    const link = new ChromeLink(
      new PassThrough(),
      pipe,
      createLogger(() => undefined),
    );
    link.start({ message: () => undefined, bad: () => undefined, end: () => undefined });
    link.send({
      type: 'request',
      conn: 'c1',
      seq: 1,
      message: { id: 1, action: 'x', params: { pad: 'a'.repeat(3_000_000) } },
    });
    await link.flushed();
    await new Promise((resolve) => pipe.end(resolve));
    const frames = new FrameDecoder(64 * 1024 * 1024).push(Buffer.concat(written));
    expect(frames.length).toBeGreaterThan(2);
    for (const frame of frames) {
      expect(frame.kind).toBe('frame');
      expect(Buffer.byteLength(frame.kind === 'frame' ? frame.text : '')).toBeLessThanOrEqual(
        HOST_TO_EXTENSION_MAX_BYTES,
      );
      expect(JSON.parse(frame.kind === 'frame' ? frame.text : '{}')).toMatchObject({ type: 'chunk' });
    }
  });
});
