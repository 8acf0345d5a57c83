import type { CdpSession } from '../../cdp/session';

/** Paper sizes in inches, as Page.printToPDF takes them. */
const PAPER: Record<'Letter' | 'Legal' | 'A4' | 'A3' | 'Tabloid', [number, number]> = {
  Letter: [8.5, 11],
  Legal: [8.5, 14],
  A4: [8.27, 11.69],
  A3: [11.69, 16.54],
  Tabloid: [11, 17],
};

const DEFAULT_HEADER = '<div style="font-size:9px;width:100%;text-align:center"><span class="date"></span></div>';
const DEFAULT_FOOTER =
  '<div style="font-size:9px;width:100%;display:flex;justify-content:space-between;padding:0 12px"><span class="url"></span><span><span class="pageNumber"></span>/<span class="totalPages"></span></span></div>';

export interface PdfOptions {
  print_background: boolean;
  landscape: boolean;
  scale: number;
  paper_format: keyof typeof PAPER;
  display_header_footer: boolean;
  header_template: string | null;
  footer_template: string | null;
}

/** The page as a PDF (base64), browser-use's save_as_pdf defaults: date header, URL and page footer. */
export async function printToPdf(session: CdpSession, options: PdfOptions): Promise<string> {
  const [width, height] = PAPER[options.paper_format];
  const { data } = await session.call(
    'Page.printToPDF',
    {
      printBackground: options.print_background,
      landscape: options.landscape,
      scale: options.scale,
      paperWidth: width,
      paperHeight: height,
      displayHeaderFooter: options.display_header_footer,
      headerTemplate: options.header_template ?? DEFAULT_HEADER,
      footerTemplate: options.footer_template ?? DEFAULT_FOOTER,
      preferCSSPageSize: false,
    },
    { timeoutMs: 25_000 },
  );
  return data;
}
