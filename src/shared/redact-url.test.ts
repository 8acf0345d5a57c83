import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url';

describe('redactUrl', () => {
  it('masks every query value and keeps the names', () => {
    expect(redactUrl('ws://127.0.0.1:3000/?token=s3cret&blockAds=true')).toBe(
      'ws://127.0.0.1:3000/?token=***&blockAds=***',
    );
  });

  it('masks a password in the user info', () => {
    expect(redactUrl('wss://user:hunter2@pool.example/chromium')).toBe('wss://user:***@pool.example/chromium');
  });

  it('leaves a URL without credentials as it is', () => {
    expect(redactUrl('http://127.0.0.1:9222')).toBe('http://127.0.0.1:9222/');
    expect(redactUrl('ws://127.0.0.1:9222/devtools/browser/abc')).toBe('ws://127.0.0.1:9222/devtools/browser/abc');
  });

  it('masks the query of something that does not parse as a URL', () => {
    expect(redactUrl('not a url?token=s3cret')).toBe('not a url?***');
  });
});
