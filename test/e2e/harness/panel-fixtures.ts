import type { FixtureServer } from './fixture-server';
import type { PanelPage } from './panel';

/** A page with things to act on: a button that says when it was clicked, a text field, a select. */
export const FORM_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Panel form</title></head><body>
<h1>Panel form</h1>
<button id="go" onclick="document.getElementById('out').textContent = 'clicked ' + (++window.clicks)">Go</button>
<p id="out">waiting</p>
<label>Name <input id="name" type="text"></label>
<label>Colour <select id="colour"><option>red</option><option>green</option><option>blue</option></select></label>
<label>Attachment <input id="attachment" type="file"></label>
<p id="attachment-out">no file</p>
<script>window.clicks = 0;
document.getElementById('attachment').addEventListener('change', async (event) => {
  const file = event.target.files[0];
  document.getElementById('attachment-out').textContent = file.name + ': ' + (await file.text());
});</script>
</body></html>`;

export function addFormPage(server: FixtureServer): void {
  server.route('/panel-form.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(FORM_PAGE);
  });
}

/** The index the page view lists for the element whose line contains `text`. */
export async function elementIndex(panel: PanelPage, text: string): Promise<number> {
  await panel.waitFor(
    `[...document.querySelectorAll('#elements li')].some((li) => li.textContent.includes(${JSON.stringify(text)}))`,
    `an element "${text}" in the list`,
  );
  return panel.eval<number>(
    `Number([...document.querySelectorAll('#elements li')].find((li) => li.textContent.includes(${JSON.stringify(text)})).dataset.index)`,
  );
}
