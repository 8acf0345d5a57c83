import type { FixtureServer } from './fixture-server';

export const DOWNLOADS = {
  attribute: { file: 'hello.txt', text: 'hello from a download attribute\n' },
  data: { file: 'data-url.txt', text: 'bytes of a data: URL' },
  blob: { file: 'made-in-page.csv', text: 'a,b\n1,2\n' },
  attachment: { file: 'report.csv', text: 'id,total\n7,99\n' },
  navigation: { file: 'archive.bin', bytes: Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]) },
  byScript: { file: 'by-script.txt', text: 'started by the page in place of its link\n' },
  byScriptTiny: { file: 'by-script-tiny.txt', text: 'started by the page in place of its shrunk link\n' },
} as const;

/**
 * How long a download link's server takes to answer: longer than an action's settling (about 100 ms), far
 * shorter than how long a click waits for the download its link starts.
 */
export const SLOW_SERVER_MS = 400;

/** A small valid PDF (one empty page). */
export const PDF_BYTES = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/**
 * Every way a page starts a download: a link with `download`, a data: URL, a blob: URL made in the page,
 * a link to a response with Content-Disposition: attachment, a navigation to a file; a PDF shown inline;
 * and a file input that shows the name and size of what it got, for uploading a download again.
 */
export function addDownloadPages(server: FixtureServer): void {
  const dataUrl = `data:text/plain;base64,${Buffer.from(DOWNLOADS.data.text).toString('base64')}`;
  server.route('/dl/index.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html><html><head><title>Downloads</title></head><body>
<p><a id="attribute" download="${DOWNLOADS.attribute.file}" href="/dl/hello">Attribute link</a></p>
<p><a id="data" download="${DOWNLOADS.data.file}" href="${dataUrl}">Data link</a></p>
<p><button id="blob">Blob button</button></p>
<p><a id="attachment" href="/dl/report">Attachment link</a></p>
<p><a id="prevented" download="never.txt" href="/dl/hello">Prevented link</a></p>
<p><a id="prevented-tiny" download="never.txt" href="/dl/hello">Tiny prevented link</a> <button id="shrink">Shrink the tiny link</button></p>
<p><label>Upload <input id="upload" type="file" onchange="document.getElementById('got').textContent = this.files[0].name + ' ' + this.files[0].size"></label></p>
<p id="got">nothing</p>
<script>
/** Downloads a URL as a page's script does: through a link of its own. */
function download(href, name) {
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
}
// The link does not follow its URL: the page starts another download in its place, from a slow server.
document.getElementById('prevented').addEventListener('click', (event) => {
  event.preventDefault();
  setTimeout(() => download('/dl/late', ${JSON.stringify(DOWNLOADS.byScript.file)}), 0);
});
// The same, on a link that has no box once the button shrinks it: a click can only dispatch it by script.
document.getElementById('prevented-tiny').addEventListener('click', (event) => {
  event.preventDefault();
  setTimeout(() => download('/dl/late-tiny', ${JSON.stringify(DOWNLOADS.byScriptTiny.file)}), 0);
});
document.getElementById('shrink').addEventListener('click', () => {
  document.getElementById('prevented-tiny').style.cssText = 'display: inline-block; width: 0; height: 0; overflow: hidden';
});
document.getElementById('blob').addEventListener('click', () => {
  download(
    URL.createObjectURL(new Blob([${JSON.stringify(DOWNLOADS.blob.text)}], { type: 'text/csv' })),
    ${JSON.stringify(DOWNLOADS.blob.file)},
  );
});
</script>
</body></html>`);
  });
  // A server slower than an action's settling: the download begins only when it answers, so a click that
  // did not know its link downloads would return before it.
  server.route('/dl/hello', (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(DOWNLOADS.attribute.text);
    }, SLOW_SERVER_MS);
  });
  server.route('/dl/late', (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(DOWNLOADS.byScript.text);
    }, SLOW_SERVER_MS);
  });
  server.route('/dl/late-tiny', (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(DOWNLOADS.byScriptTiny.text);
    }, SLOW_SERVER_MS);
  });
  server.route('/dl/report', (_req, res) => {
    res.writeHead(200, {
      'content-type': 'text/csv',
      'content-disposition': `attachment; filename="${DOWNLOADS.attachment.file}"`,
    });
    res.end(DOWNLOADS.attachment.text);
  });
  server.route(`/dl/${DOWNLOADS.navigation.file}`, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(DOWNLOADS.navigation.bytes);
  });
  server.route('/dl/manual.pdf', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf' });
    res.end(PDF_BYTES);
  });
}
