import { describe, expect, it } from 'vitest';
import { isTabpilotError } from '../../shared/errors';
import { checkUploadPath } from './upload-policy';

function codeOf(path: string, allowed: readonly string[]): string {
  try {
    checkUploadPath(path, allowed);
    return 'allowed';
  } catch (error) {
    return isTabpilotError(error) ? error.code : String(error);
  }
}

describe('checkUploadPath', () => {
  it('allows files under a listed directory, at any depth', () => {
    expect(codeOf('/home/me/uploads/report.pdf', ['/home/me/uploads'])).toBe('allowed');
    expect(codeOf('/home/me/uploads/2026/a.png', ['/home/me/uploads/'])).toBe('allowed');
    expect(codeOf('/srv/x/y.txt', ['/home/me', '/srv/x'])).toBe('allowed');
  });

  it('refuses everything when nothing is listed, with a message that says how to allow it', () => {
    expect(codeOf('/tmp/a.txt', [])).toBe('FORBIDDEN');
    expect(() => checkUploadPath('/tmp/a.txt', [])).toThrow(/upload_paths/);
  });

  it('refuses paths outside, including a sibling that shares the prefix', () => {
    expect(codeOf('/etc/passwd', ['/home/me/uploads'])).toBe('FORBIDDEN');
    expect(codeOf('/home/me/uploads-private/key', ['/home/me/uploads'])).toBe('FORBIDDEN');
    expect(codeOf('/home/me', ['/home/me/uploads'])).toBe('FORBIDDEN');
  });

  it('refuses relative paths and dot segments instead of resolving them', () => {
    expect(codeOf('/home/me/uploads/../.ssh/id_rsa', ['/home/me/uploads'])).toBe('INVALID_PARAMS');
    expect(codeOf('/home/me/uploads/./a.txt', ['/home/me/uploads'])).toBe('INVALID_PARAMS');
    expect(codeOf('uploads/a.txt', ['/home/me/uploads'])).toBe('INVALID_PARAMS');
  });

  it('compares Windows paths without regard to case or slash direction', () => {
    expect(codeOf('C:\\Users\\Me\\Uploads\\a.txt', ['c:/users/me/uploads'])).toBe('allowed');
    expect(codeOf('C:\\Users\\Me\\a.txt', ['C:\\Users\\Me\\Uploads'])).toBe('FORBIDDEN');
  });
});
