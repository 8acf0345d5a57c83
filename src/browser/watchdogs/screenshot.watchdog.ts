import { defineWatchdog } from '../define-watchdog';
import { saveFile } from '../host';
import { captureScreenshot } from '../actions/screenshot';
import { ScreenshotEvent } from '../events/state.events';

const MIME: Record<'png' | 'jpeg' | 'webp', string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/** ScreenshotEvent: viewport, full page or a clip; PNG, JPEG or WebP; saved as a file on request. */
export const screenshotWatchdog = defineWatchdog({
  name: 'screenshot',
  listensTo: [ScreenshotEvent],
  emits: [],
  setup: (ctx) => ({
    ScreenshotEvent: async (event) => {
      const { full_page, clip, format, quality, target_id, file_name } = event.payload;
      const targetId = target_id ?? ctx.session.cdp.focusedTargetId;
      const session =
        targetId === undefined ? await ctx.session.cdp.focusedSession() : ctx.session.cdp.requireSession(targetId);
      const shot = await captureScreenshot(session, { fullPage: full_page, clip, format, quality });
      const path =
        file_name === null ? null : await saveFile(ctx.session.host.files, file_name, shot.data, MIME[format]);
      return { data: shot.data, format, width: shot.width, height: shot.height, path };
    },
  }),
});
