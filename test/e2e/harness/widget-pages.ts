import { buildWidgetPages } from '../../../scripts/build-widget-pages.mjs';
import { html, page, type FixtureServer } from './fixture-server';

/**
 * The widget pages: real component libraries bundled from test/e2e/widgets (built on first use, in
 * seconds, and reused while their sources are unchanged), served under /widgets/, beside a native
 * `<select multiple>` page (with an ARIA list that never takes a pick). Each page shows what its widgets hold as React state (`<name> holds: …`).
 */
export async function addWidgetPages(server: FixtureServer): Promise<void> {
  const { dir } = await buildWidgetPages();
  server.serveFolder('/widgets/', dir);
  server.route('/native-multi.html', (_req, res) =>
    html(
      res,
      page(
        'Native multi-select',
        `<label for="basket">Basket</label>
<select id="basket" multiple size="5">
  <option value="apple" selected>Apple</option><option value="banana">Banana</option>
  <option value="cherry" selected>Cherry</option><option value="damson">Damson</option>
  <option value="fig" disabled>Fig</option>
</select>
<p id="held-basket" data-held="apple,cherry">basket holds: apple,cherry</p>
<button id="stubborn" role="combobox" aria-expanded="false" aria-controls="stubborn-list">Stubborn: Red</button>
<ul id="stubborn-list" role="listbox" hidden>
  <li role="option" aria-selected="true">Red</li><li role="option" aria-selected="false">Green</li>
</ul>
<script>
  // An imitation that opens and closes but never takes a pick: its options ignore clicks.
  const stubborn = document.getElementById('stubborn');
  stubborn.addEventListener('click', () => {
    const list = document.getElementById('stubborn-list');
    list.hidden = !list.hidden;
    stubborn.setAttribute('aria-expanded', String(!list.hidden));
  });
  document.getElementById('stubborn-list').addEventListener('click', () => {
    document.getElementById('stubborn-list').hidden = true;
    stubborn.setAttribute('aria-expanded', 'false');
  });
  const basket = document.getElementById('basket');
  basket.addEventListener('change', () => {
    const held = document.getElementById('held-basket');
    held.dataset.held = Array.from(basket.selectedOptions, (option) => option.value).join(',');
    held.textContent = 'basket holds: ' + held.dataset.held;
  });
</script>`,
      ),
    ),
  );
}
