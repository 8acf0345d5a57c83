import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CdpIncoming } from '../../protocol/cdp';
import { isPipeEndpoint, pipeEndpoint, PipeTransport } from './pipe-transport';

function pipePair(): { toBrowser: PassThrough; fromBrowser: PassThrough; written: () => string } {
  const toBrowser = new PassThrough();
  const chunks: Buffer[] = [];
  toBrowser.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { toBrowser, fromBrowser: new PassThrough(), written: () => Buffer.concat(chunks).toString('utf8') };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('PipeTransport', () => {
  it('writes each message as JSON ended by a NUL, and reads NUL-ended messages cut anywhere, UTF-8 included', async () => {
    const pipe = pipePair();
    const transport = new PipeTransport(pipe);
    const received: CdpIncoming[] = [];
    transport.onmessage = (message) => received.push(message);
    transport.send({ id: 1, method: 'Browser.getVersion' });
    const whole = Buffer.from(
      '{"id":1,"result":{"product":"Chrome ✓"}}\0{"method":"Target.targetCreated","params":{}}\0',
    );
    // Cut inside the multi-byte ✓ and across the separator.
    const cut = whole.indexOf(Buffer.from('✓')) + 1;
    pipe.fromBrowser.write(whole.subarray(0, cut));
    pipe.fromBrowser.write(whole.subarray(cut, cut + 10));
    pipe.fromBrowser.write(whole.subarray(cut + 10));
    await tick();
    expect(pipe.written()).toBe('{"id":1,"method":"Browser.getVersion"}\0');
    expect(received).toEqual([
      { id: 1, result: { product: 'Chrome ✓' } },
      { method: 'Target.targetCreated', params: {} },
    ]);
  });

  it('says it cannot reconnect, and reports the browser closing its end once', async () => {
    const pipe = pipePair();
    const transport = new PipeTransport(pipe);
    expect(transport.capabilities.reconnect).toBe(false);
    const reasons: string[] = [];
    transport.onclose = (reason) => reasons.push(reason);
    pipe.fromBrowser.end();
    await tick();
    expect(reasons).toEqual(['the browser closed its DevTools pipe (it exited)']);
    expect(() => transport.send({ id: 2, method: 'Browser.getVersion' })).toThrow(
      expect.objectContaining({ code: 'DISCONNECTED' }),
    );
  });

  it('on close, detaches the sessions it attached, so the next client of the pipe starts clean', async () => {
    const pipe = pipePair();
    const transport = new PipeTransport(pipe);
    const event = (method: string, sessionId: string): string =>
      `${JSON.stringify({ method, params: { sessionId, targetInfo: {}, waitingForDebugger: false } })}\0`;
    pipe.fromBrowser.write(event('Target.attachedToTarget', 'A') + event('Target.attachedToTarget', 'B'));
    pipe.fromBrowser.write(event('Target.detachedFromTarget', 'A'));
    await tick();
    const reasons: string[] = [];
    transport.onclose = (reason) => reasons.push(reason);
    transport.close('released');
    await tick();
    const sent = pipe
      .written()
      .split('\0')
      .filter((line) => line !== '');
    expect(sent.map((line) => JSON.parse(line) as { method: string; params: unknown })).toEqual([
      expect.objectContaining({ method: 'Target.detachFromTarget', params: { sessionId: 'B' } }),
    ]);
    expect(reasons).toEqual(['released']);
    // The pipe stays open for the next transport: the browser is the launcher's to end.
    expect(pipe.toBrowser.writableEnded).toBe(false);
  });

  it('names a pipe endpoint apart from any WebSocket URL', () => {
    expect(isPipeEndpoint(pipeEndpoint(42))).toBe(true);
    expect(pipeEndpoint(42)).toBe('pipe://chromium/42');
    expect(isPipeEndpoint('ws://127.0.0.1:9222/devtools/browser/x')).toBe(false);
  });
});
