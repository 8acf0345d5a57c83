import { describe, expect, it } from 'vitest';
import { HarFileLayout, type FileWrite } from './har-layout';
import type { HarEntry, HarPage } from './har-types';

/** A file in memory, grown by the layout's writes. */
class MemoryFile {
  bytes = new Uint8Array(0);
  apply(write: FileWrite): void {
    const end = Math.max(this.bytes.length, write.offset + write.bytes.length);
    const next = new Uint8Array(end);
    next.set(this.bytes, 0);
    next.set(write.bytes, write.offset);
    this.bytes = next;
  }
  json(): { log: { entries: HarEntry[]; pages: HarPage[]; version: string } } {
    return JSON.parse(new TextDecoder().decode(this.bytes)) as never;
  }
}

function entry(url: string): HarEntry {
  return {
    startedDateTime: new Date(0).toISOString(),
    time: 1,
    request: {
      method: 'GET',
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: 'text/plain' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 0,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 },
  };
}

function page(id: string, title: string): HarPage {
  return { id, title, startedDateTime: new Date(0).toISOString(), pageTimings: { onContentLoad: -1, onLoad: -1 } };
}

describe('HarFileLayout', () => {
  it('leaves a complete HAR after every single write', () => {
    const layout = new HarFileLayout();
    const file = new MemoryFile();
    file.apply(layout.start({ name: 'tabpilot', version: '1' }, { name: 'Chromium', version: '156' }));
    expect(file.json().log).toMatchObject({ version: '1.2', entries: [], pages: [] });
    file.apply(layout.setPages([page('page_1', 'a very long title that will get shorter later')]));
    expect(file.json().log.pages).toHaveLength(1);
    for (let n = 0; n < 5; n += 1) {
      file.apply(layout.addEntry(entry(`http://x/${n}`)));
      expect(file.json().log.entries.map((e) => e.request.url)).toEqual(
        Array.from({ length: n + 1 }, (_, at) => `http://x/${at}`),
      );
    }
    // A shorter pages tail is padded, so nothing of the old tail is left past the end.
    file.apply(layout.setPages([page('page_1', 'short')]));
    expect(file.json().log.pages[0]?.title).toBe('short');
    expect(file.json().log.entries).toHaveLength(5);
    expect(file.bytes.length).toBe(layout.size);
    file.apply(layout.addEntry(entry('http://x/last')));
    expect(file.json().log.entries.at(-1)?.request.url).toBe('http://x/last');
    expect(layout.entryCount).toBe(6);
  });

  it('counts bytes, not characters, so non-ASCII text lands where it should', () => {
    const layout = new HarFileLayout();
    const file = new MemoryFile();
    file.apply(layout.start({ name: 'tabpilot', version: '1' }, { name: 'Chromium', version: '156' }));
    file.apply(layout.addEntry(entry('http://x/héllo-wörld-✓')));
    file.apply(layout.setPages([page('page_1', 'Grüße ✓')]));
    file.apply(layout.addEntry(entry('http://x/2')));
    expect(file.json().log.entries.map((e) => e.request.url)).toEqual(['http://x/héllo-wörld-✓', 'http://x/2']);
    expect(file.json().log.pages[0]?.title).toBe('Grüße ✓');
  });
});
