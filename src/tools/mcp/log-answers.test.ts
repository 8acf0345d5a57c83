import { describe, expect, it } from 'vitest';
import { consoleText, networkText } from './log-answers';

describe('the console and network answers for a model', () => {
  it('puts each console message on one line, its level first, its place by file name, a stack under it', () => {
    const text = consoleText(
      {
        messages: [
          {
            level: 'log',
            source: 'console',
            text: 'app started',
            url: 'http://a.test/js/app.js?v=3',
            line: 6,
            column: 9,
            stack: null,
          },
          {
            level: 'error',
            source: 'exception',
            text: 'Uncaught Error: boom',
            url: 'http://a.test/js/app.js',
            line: 12,
            column: 3,
            stack: '    at explode (http://a.test/js/app.js?v=3:12:3)\n    at http://a.test/js/main.js:40:1',
          },
          {
            level: 'error',
            source: 'exception',
            text: 'Uncaught (in promise) Error: late',
            url: 'http://a.test/js/app.js',
            line: 20,
            column: 5,
            stack: '    at <anonymous> (http://a.test/js/app.js:20:5)',
          },
          {
            level: 'warning',
            source: 'browser',
            text: 'Failed to load resource',
            url: null,
            line: null,
            column: null,
            stack: null,
          },
        ],
        total: 40,
        dropped: 2,
        mark: 40,
      },
      'Tab AB12: ',
    );
    expect(text).toBe(
      [
        'Tab AB12: 40 console messages, the newest 4 shown, 2 older ones let go (mark 40: pass it as since_mark).',
        '[log] app started (app.js:6:9)',
        '[error exception] Uncaught Error: boom (app.js:12:3)',
        '    at explode (app.js:12:3)',
        '    at main.js:40:1',
        // A stack of one frame where the message was thrown says nothing more.
        '[error exception] Uncaught (in promise) Error: late (app.js:20:5)',
        '[warning browser] Failed to load resource',
      ].join('\n'),
    );
  });

  it('puts each request on one line: its id, method, status, type, URL, time, size, and why it failed', () => {
    const text = networkText(
      {
        requests: [
          {
            id: '1',
            url: 'http://a.test/',
            method: 'GET',
            resource_type: 'Document',
            status: 200,
            mime_type: 'text/html',
            failure: null,
            failed: false,
            started_ms: 0,
            duration_ms: 12.4,
            encoded_bytes: 2_300,
            from_cache: false,
          },
          {
            id: '2',
            url: 'http://a.test/missing',
            method: 'GET',
            resource_type: 'Fetch',
            status: 404,
            mime_type: null,
            failure: null,
            failed: true,
            started_ms: 20,
            duration_ms: 3,
            encoded_bytes: 120,
            from_cache: false,
          },
          {
            id: '3',
            url: 'http://b.test/ws',
            method: 'GET',
            resource_type: 'XHR',
            status: null,
            mime_type: null,
            failure: 'net::ERR_CONNECTION_REFUSED',
            failed: true,
            started_ms: 30,
            duration_ms: null,
            encoded_bytes: null,
            from_cache: false,
          },
        ],
        total: 3,
        dropped: 0,
      },
      '',
    );
    expect(text).toBe(
      [
        '3 requests (network_request takes an id in brackets).',
        '[1] GET 200 document http://a.test/ 12 ms 2.2 kB',
        '[2] GET 404 fetch http://a.test/missing 3 ms 120 B FAILED',
        '[3] GET --- xhr http://b.test/ws FAILED net::ERR_CONNECTION_REFUSED',
      ].join('\n'),
    );
  });
});
