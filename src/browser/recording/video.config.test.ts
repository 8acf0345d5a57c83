import { describe, expect, it } from 'vitest';
import { parseBrowserConfig } from '../config';

describe('the recording config', () => {
  it('is off by default', () => {
    expect(parseBrowserConfig({})).toMatchObject({ record_video_dir: null, record_video_size: null });
  });

  it('takes a folder and a frame size', () => {
    expect(
      parseBrowserConfig({ record_video_dir: 'videos', record_video_size: { width: 800, height: 600 } }),
    ).toMatchObject({
      record_video_dir: 'videos',
      record_video_size: { width: 800, height: 600 },
    });
  });

  it('refuses a bad size or an empty folder, naming the field', () => {
    expect(() => parseBrowserConfig({ record_video_size: { width: 0, height: 600 } })).toThrow(
      /record_video_size\.width/,
    );
    expect(() => parseBrowserConfig({ record_video_size: { width: 800 } })).toThrow(/record_video_size\.height/);
    expect(() => parseBrowserConfig({ record_video_dir: '' })).toThrow(/record_video_dir/);
  });
});
