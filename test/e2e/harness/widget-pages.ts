import { buildWidgetPages } from '../../../scripts/build-widget-pages.mjs';
import { html, page, type FixtureServer } from './fixture-server';

/**
 * The widget pages: real component libraries bundled from test/e2e/widgets (built on first use, in
 * seconds, and reused while their sources are unchanged), served under /widgets/, beside a native
 * `<select multiple>` page (with an ARIA list that never takes a pick) and a keyboard-walked list that
 * undoes the first Down key after it opens. Each page shows what its widgets hold (`<name> holds: …`).
 */
export async function addWidgetPages(server: FixtureServer): Promise<void> {
  const { dir } = await buildWidgetPages();
  server.serveFolder('/widgets/', dir);
  server.route('/undone-key.html', (_req, res) => html(res, page('Undone key', UNDONE_KEY)));
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

/**
 * A combobox walked with the keys as Ant Design's is (its ARIA list has no size and holds the active
 * option and its neighbours; it does not wrap), whose page undoes the first Down key after the list opens
 * in the same task, as a late effect that resets the active option to the first would: the key seems to
 * move nothing although an option follows. `window.undone` counts the keys it undid.
 */
const UNDONE_KEY = `<label for="undo">Undoing fruit</label>
<input id="undo" role="combobox" readonly aria-haspopup="listbox" aria-expanded="false" aria-controls="undo-list">
<div id="undo-list" role="listbox" hidden style="width: 0; height: 0; overflow: hidden"></div>
<p id="held-undo" data-held="">undo holds: (nothing)</p>
<script>
  const names = ['Apple', 'Banana', 'Cherry', 'Damson', 'Elderberry', 'Fig', 'Grape', 'Honeydew'];
  const input = document.getElementById('undo');
  const list = document.getElementById('undo-list');
  let open = false;
  let active = 0;
  let fresh = false;
  window.undone = 0;
  function option(index) {
    const item = document.createElement('div');
    item.setAttribute('role', 'option');
    item.id = 'undo-list_' + index;
    item.setAttribute('aria-label', names[index]);
    return item;
  }
  function render() {
    input.setAttribute('aria-expanded', String(open));
    list.hidden = !open;
    if (open) {
      input.setAttribute('aria-activedescendant', 'undo-list_' + active);
    } else {
      input.removeAttribute('aria-activedescendant');
    }
    const near = [active - 1, active, active + 1].filter((index) => index >= 0 && index < names.length);
    list.replaceChildren(...near.map(option));
  }
  input.addEventListener('mousedown', () => {
    open = !open;
    active = 0;
    fresh = open;
    render();
  });
  input.addEventListener('keydown', (event) => {
    if (!open) {
      return;
    }
    if (event.key === 'Escape') {
      open = false;
      render();
    } else if (event.key === 'ArrowDown') {
      active = Math.min(active + 1, names.length - 1);
      render();
      if (fresh) {
        fresh = false;
        queueMicrotask(() => {
          active = 0;
          window.undone += 1;
          render();
        });
      }
    }
  });
</script>`;
