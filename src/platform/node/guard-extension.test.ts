import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUARD_WORKER_FILE } from '../../browser/security/guard-worker';
import { withGuardExtension, writeGuardExtension } from './guard-extension';

describe('the WebSocket guard extension', () => {
  it('is a Manifest V3 extension asking for declarativeNetRequest only, with the worker tabpilot looks for', () => {
    const dir = writeGuardExtension();
    try {
      const manifest: unknown = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
      expect(manifest).toMatchObject({
        manifest_version: 3,
        permissions: ['declarativeNetRequest'],
        background: { service_worker: GUARD_WORKER_FILE },
      });
      expect(manifest).not.toHaveProperty('host_permissions');
      expect(readFileSync(join(dir, GUARD_WORKER_FILE), 'utf8')).not.toBe('');
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('is added as the only extension when the flags load none', () => {
    expect(withGuardExtension(['--site-per-process'], '/g')).toEqual(['--site-per-process', '--load-extension=/g']);
  });

  it("joins the flags' own extension list and allow list, since Chromium reads one of each", () => {
    expect(
      withGuardExtension(['--disable-extensions-except=/a', '--load-extension=/a,/b', '--mute-audio'], '/g'),
    ).toEqual(['--disable-extensions-except=/a,/g', '--load-extension=/a,/b,/g', '--mute-audio']);
  });
});
