import type { FixtureServer } from './fixture-server';
import type { PanelPage } from './panel';

/** A page with things to act on: a button that says when it was clicked, a text field, a select. */
export const FORM_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Panel form</title></head><body>
<h1>Panel form</h1>
<button id="go" onclick="document.getElementById('out').textContent = 'clicked ' + (++window.clicks)">Go</button>
<p id="out">waiting</p>
<label>Name <input id="name" type="text"></label>
<label>Colour <select id="colour"><option>red</option><option>green</option><option>blue</option></select></label>
<script>window.clicks = 0;</script>
</body></html>`;

export function addFormPage(server: FixtureServer): void {
  server.route('/panel-form.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(FORM_PAGE);
  });
}

/** Whether the worker's `describe` lists every one of these actions (some come with later issues). */
export async function describes(panel: PanelPage, actions: readonly string[]): Promise<boolean> {
  await panel.waitFor(`document.getElementById('view-actions')`, 'the panel');
  const listed = await panel.eval<string[]>(`(async () => {
    const port = chrome.runtime.connect({ name: 'tabpilot-panel' });
    return new Promise((resolve) => {
      port.onMessage.addListener((message) => {
        if (message.type === 'response' && message.response.id === 'probe-describe') {
          port.disconnect();
          resolve(message.response.ok ? message.response.result.actions.map((action) => action.name) : []);
        }
      });
      port.postMessage({ type: 'command', request: { id: 'probe-describe', action: 'describe' } });
    });
  })()`);
  return actions.every((action) => listed.includes(action));
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
