import { describe, expect, it } from 'vitest';
import { contentSettingsGranter, type ContentSettingsApi } from './content-settings-granter';

function fakeContentSettings(): { api: ContentSettingsApi; calls: string[] } {
  const calls: string[] = [];
  const type = (name: string) => ({
    set: async (details: { primaryPattern: string; setting: string }) => {
      calls.push(`${name}.set ${details.primaryPattern} ${details.setting}`);
    },
    clear: async () => {
      calls.push(`${name}.clear`);
    },
  });
  const api = {
    clipboard: type('clipboard'),
    notifications: type('notifications'),
    location: type('location'),
    camera: type('camera'),
    microphone: type('microphone'),
  } satisfies ContentSettingsApi;
  return { api, calls };
}

describe('contentSettingsGranter', () => {
  it('allows each permission for every http and https site, after clearing what it set before', async () => {
    const { api, calls } = fakeContentSettings();
    await contentSettingsGranter(api).apply(['clipboardReadWrite', 'videoCapture'], undefined as never);
    expect(calls).toEqual([
      'clipboard.clear',
      'clipboard.set http://*/* allow',
      'clipboard.set https://*/* allow',
      'notifications.clear',
      'location.clear',
      'camera.clear',
      'camera.set http://*/* allow',
      'camera.set https://*/* allow',
      'microphone.clear',
    ]);
  });

  it('refuses what chrome.contentSettings cannot express, naming each, and changes nothing', async () => {
    const { api, calls } = fakeContentSettings();
    const granter = contentSettingsGranter(api);
    await expect(
      granter.apply(['notifications', 'midi', 'windowManagement'], undefined as never),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED',
      message: expect.stringMatching(
        /^permissions: chrome.contentSettings cannot grant midi, windowManagement \(it can grant clipboardReadWrite, /,
      ),
    });
    expect(calls).toEqual([]);
    expect(granter.grantable).toEqual([
      'clipboardReadWrite',
      'clipboardSanitizedWrite',
      'notifications',
      'geolocation',
      'videoCapture',
      'audioCapture',
    ]);
  });
});
