import { defineWatchdog } from '../define-watchdog';
import { saveFile } from '../host';
import { captureScreenshot } from '../actions/screenshot';
import { SavePdfEvent } from '../../protocol/events/content.events';
import { ScreenshotEvent } from '../../protocol/events/state.events';
import { printToPdf } from '../actions/pdf';

const MIME: Record<'png' | 'jpeg' | 'webp', string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/**
 * What the page looks like, as an image or a document: ScreenshotEvent (viewport, full page or a clip;
 * PNG, JPEG or WebP; saved as a file on request) and SavePdfEvent (Page.printToPDF, saved as a file).
 */
export const screenshotWatchdog = defineWatchdog({
  name: 'screenshot',
  listensTo: [ScreenshotEvent, SavePdfEvent],
  emits: [],
  setup: (ctx) => ({
    ScreenshotEvent: async (event) => {
      const { full_page, clip, format, quality, target_id, file_name, max_side, max_pixels } = event.payload;
      const page = ctx.session.targets.requireSession(target_id);
      const shot = await captureScreenshot(page, {
        fullPage: full_page,
        clip: clip ?? null,
        format,
        quality: quality ?? null,
        maxSide: max_side ?? null,
        maxPixels: max_pixels ?? null,
      });
      const path =
        file_name === undefined ? null : await saveFile(ctx.session.host.files, file_name, shot.data, MIME[format]);
      return {
        data: shot.data,
        format,
        width: shot.width,
        height: shot.height,
        image_width: shot.imageWidth,
        image_height: shot.imageHeight,
        path,
      };
    },
    SavePdfEvent: async (event) => {
      const { target_id, file_name, header_template, footer_template, ...options } = event.payload;
      const data = await printToPdf(ctx.session.targets.requireSession(target_id), {
        ...options,
        header_template: header_template ?? null,
        footer_template: footer_template ?? null,
      });
      const name = /\.pdf$/i.test(file_name) ? file_name : `${file_name}.pdf`;
      const path = await saveFile(ctx.session.host.files, name, data, 'application/pdf');
      return { path, bytes: base64Bytes(data) };
    },
  }),
});

/** The decoded size of base64 text (3 bytes per 4 characters, less the padding). */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}
