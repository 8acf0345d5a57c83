import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger, type LogRecord } from '../../../shared/logger';
import { EncoderDocument, KEEP_DOCUMENT_MS as KEEP_MS, type OffscreenDocumentApi } from './encoder-document';

/** chrome.offscreen as it behaves: one document per extension, a second create is refused. */
class FakeOffscreen implements OffscreenDocumentApi {
  open = false;
  created = 0;
  closed = 0;
  /** Holds closeDocument until released, to start a recording while a close is under way. */
  holdClose: Promise<void> | undefined;

  createDocument(): Promise<void> {
    if (this.open) {
      return Promise.reject(new Error('Only a single offscreen document may be created.'));
    }
    this.open = true;
    this.created++;
    return Promise.resolve();
  }

  async closeDocument(): Promise<void> {
    await this.holdClose;
    if (!this.open) {
      throw new Error('No current offscreen document.');
    }
    this.open = false;
    this.closed++;
  }

  hasDocument(): Promise<boolean> {
    return Promise.resolve(this.open);
  }
}

describe('EncoderDocument', () => {
  let api: FakeOffscreen;
  let records: LogRecord[];
  let document: EncoderDocument;

  beforeEach(() => {
    vi.useFakeTimers();
    api = new FakeOffscreen();
    records = [];
    document = new EncoderDocument(
      api,
      createLogger((record) => records.push(record)),
      KEEP_MS,
    );
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps the document between recordings and closes it once none has started for the keep time', async () => {
    await document.acquire();
    document.release();
    await vi.advanceTimersByTimeAsync(KEEP_MS - 1);
    await document.acquire();
    document.release();
    await vi.advanceTimersByTimeAsync(KEEP_MS - 1);
    expect(api).toMatchObject({ created: 1, closed: 0, open: true });

    await vi.advanceTimersByTimeAsync(1);
    expect(api).toMatchObject({ created: 1, closed: 1, open: false });
    expect(records).toEqual([]);
  });

  it('never closes the document while a recording holds it, however long it lasts', async () => {
    await document.acquire();
    await vi.advanceTimersByTimeAsync(KEEP_MS * 10);
    expect(api.open).toBe(true);

    document.release();
    await vi.advanceTimersByTimeAsync(KEEP_MS);
    expect(api.open).toBe(false);
  });

  it('uses a document an earlier worker left, and closes one nobody uses the keep time after it started', async () => {
    api.open = true;
    const next = new EncoderDocument(
      api,
      createLogger(() => undefined),
      KEEP_MS,
    );
    await next.acquire();
    expect(api.created).toBe(0);
    next.release();

    const idle = new FakeOffscreen();
    idle.open = true;
    new EncoderDocument(
      idle,
      createLogger(() => undefined),
      KEEP_MS,
    );
    await vi.advanceTimersByTimeAsync(KEEP_MS);
    expect(idle).toMatchObject({ open: false, closed: 1 });
  });

  it('a recording that starts while the document is closing gets a new one', async () => {
    let letClose: () => void = () => undefined;
    api.holdClose = new Promise((resolve) => (letClose = resolve));
    await document.acquire();
    document.release();
    await vi.advanceTimersByTimeAsync(KEEP_MS);

    const acquired = document.acquire();
    letClose();
    await acquired;
    expect(api).toMatchObject({ created: 2, closed: 1, open: true });
  });

  it('a document that cannot be created is not held, and the error reaches the recording', async () => {
    api.createDocument = () => Promise.reject(new Error('offscreen documents are not allowed'));
    await expect(document.acquire()).rejects.toThrow('not allowed');

    api.open = true;
    await vi.advanceTimersByTimeAsync(KEEP_MS);
    expect(api.open).toBe(false);
  });

  it('a close that fails is logged, and the next recording still opens', async () => {
    api.closeDocument = () => Promise.reject(new Error('the browser is shutting down'));
    await vi.advanceTimersByTimeAsync(KEEP_MS);
    expect(records).toEqual([]);

    await document.acquire();
    document.release();
    await vi.advanceTimersByTimeAsync(KEEP_MS);
    expect(records.map((record) => record.message)).toEqual(['closing the video encoder document failed']);
    await document.acquire();
    expect(api.open).toBe(true);
  });
});
