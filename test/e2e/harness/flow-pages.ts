import { html, page, type FixtureServer } from './fixture-server';

/** What the checkout's last button says: a test renames it to show a replay stop at the changed step. */
export interface FlowPagesControl {
  placeOrderLabel: string;
}

/**
 * The loopback pages flows are recorded and replayed on: a sign-up form (text, email, a password, a plan
 * to choose, terms to accept), a listing with filters (a category, a search box, Apply), and a two-page
 * checkout (a cart, then the address and Place order). Each says what it did in text a step can expect.
 */
export function addFlowPages(server: FixtureServer): FlowPagesControl {
  const control: FlowPagesControl = { placeOrderLabel: 'Place order' };
  server.route('/flows/signup.html', (_req, res) =>
    html(
      res,
      page(
        'Sign up',
        `<h1>Create your account</h1>
<form id="signup">
  <p><label for="name">Full name</label> <input id="name" name="name" required></p>
  <p><label for="email">Email</label> <input id="email" name="email" type="email" required></p>
  <p><label for="password">Password</label> <input id="password" name="password" type="password" required></p>
  <p><label for="plan">Plan</label> <select id="plan" name="plan"><option>Free</option><option>Pro</option><option>Team</option></select></p>
  <p><label><input type="checkbox" id="terms" required> I accept the terms</label></p>
  <p><button type="submit">Sign up</button></p>
</form>
<script>
document.getElementById('signup').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.target;
  sessionStorage.setItem('signup', JSON.stringify({
    name: form.name.value, email: form.email.value, plan: form.plan.value,
    password: form.password.value.length, terms: document.getElementById('terms').checked,
  }));
  location.href = '/flows/welcome.html';
});
</script>`,
      ),
    ),
  );
  server.route('/flows/welcome.html', (_req, res) =>
    html(
      res,
      page(
        'Welcome',
        `<h1 id="hello"></h1><p id="detail"></p>
<script>
const who = JSON.parse(sessionStorage.getItem('signup') || '{}');
document.getElementById('hello').textContent = 'Welcome, ' + who.name;
document.getElementById('detail').textContent =
  who.email + ' on ' + who.plan + ', password of ' + who.password + ' characters, terms ' + (who.terms ? 'accepted' : 'refused');
</script>`,
      ),
    ),
  );
  const items = [
    ['Red kettle', 'kitchen'],
    ['Blue kettle', 'kitchen'],
    ['Oak table', 'furniture'],
    ['Pine table', 'furniture'],
    ['Steel pan', 'kitchen'],
  ];
  server.route('/flows/list.html', (_req, res) =>
    html(
      res,
      page(
        'Listing',
        `<h1>Shop</h1>
<p><label for="category">Category</label> <select id="category"><option value="">All</option><option value="kitchen">Kitchen</option><option value="furniture">Furniture</option></select>
<input id="q" type="search" aria-label="Search products" placeholder="Search">
<button id="apply" data-testid="apply-filters">Apply</button></p>
<p id="count">${items.length} results</p>
<ul id="items">${items.map(([name, category]) => `<li data-category="${category}">${name}</li>`).join('')}</ul>
<script>
document.getElementById('apply').addEventListener('click', () => {
  const category = document.getElementById('category').value;
  const q = document.getElementById('q').value.toLowerCase();
  let shown = 0;
  for (const li of document.querySelectorAll('#items li')) {
    const on = (category === '' || li.dataset.category === category) && li.textContent.toLowerCase().includes(q);
    li.hidden = !on;
    shown += on ? 1 : 0;
  }
  document.getElementById('count').textContent = shown + (shown === 1 ? ' result' : ' results');
  history.pushState(null, '', '/flows/list.html?category=' + encodeURIComponent(category) + '&q=' + encodeURIComponent(q));
});
</script>`,
      ),
    ),
  );
  server.route('/flows/cart.html', (_req, res) =>
    html(res, page('Cart', `<h1>Your cart</h1><p>1 × Oak table</p><p><a href="/flows/checkout.html">Checkout</a></p>`)),
  );
  server.route('/flows/checkout.html', (_req, res) =>
    html(
      res,
      page(
        'Checkout',
        `<h1>Checkout</h1>
<form action="/flows/done.html" method="get">
  <p><label for="address">Address</label> <input id="address" name="address" required></p>
  <p><button type="submit">${control.placeOrderLabel}</button></p>
</form>`,
      ),
    ),
  );
  server.route('/flows/done.html', (_req, res, url) =>
    html(
      res,
      page('Done', `<h1>Order placed</h1><p>Shipping to ${escapeHtml(url.searchParams.get('address') ?? '')}</p>`),
    ),
  );
  return control;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A version 1 flow of these steps, as a flow file holds it. */
export function flowOf(name: string, steps: unknown[], defaults: Record<string, string> = {}): Record<string, unknown> {
  return { format: 'tabpilot-flow', version: 1, name, steps, defaults };
}

/** The sign-up: a parameter (the name), a value, a secret (the password), a choice and a checkbox. */
export function signUpFlow(server: FixtureServer): Record<string, unknown> {
  return flowOf(
    'Sign up',
    [
      { action: 'navigate', url: server.url('/flows/signup.html'), expect: { text: 'Create your account' } },
      { action: 'fill', locator: { role: 'textbox', name: 'Full name' }, input: { param: 'name' } },
      { action: 'fill', locator: { role: 'textbox', name: 'Email' }, input: { value: 'ada@example.test' } },
      { action: 'fill', locator: { label: 'Password' }, input: { secret: 'password' } },
      { action: 'select', locator: { role: 'combobox', name: 'Plan' }, input: { value: 'Pro' } },
      { action: 'click', locator: { role: 'checkbox', name: 'I accept the terms' } },
      {
        action: 'click',
        locator: { role: 'button', name: 'Sign up' },
        expect: { path: '/flows/welcome.html', text: 'Welcome, Ada Lovelace' },
      },
    ],
    { name: 'Grace Hopper' },
  );
}

/** The listing filtered by a category, a search and Apply (found by its test id). */
export function listingFlow(server: FixtureServer): Record<string, unknown> {
  return flowOf('Filter kettles', [
    { action: 'navigate', url: server.url('/flows/list.html') },
    { action: 'select', locator: { label: 'Category' }, input: { value: 'Kitchen' } },
    { action: 'fill', locator: { role: 'searchbox', name: 'Search products' }, input: { value: 'kettle' } },
    {
      action: 'click',
      locator: { test_id: 'apply-filters' },
      expect: { path: '/flows/list.html?category=kitchen', text: '2 results' },
    },
  ]);
}

/** The two-page checkout: the cart's link, the address (a parameter with a default), Place order. */
export function checkoutFlow(server: FixtureServer): Record<string, unknown> {
  return flowOf(
    'Checkout',
    [
      { action: 'navigate', url: server.url('/flows/cart.html') },
      { action: 'click', locator: { role: 'link', name: 'Checkout' }, expect: { path: '/flows/checkout.html' } },
      { action: 'fill', locator: { label: 'Address' }, input: { param: 'address' } },
      { action: 'click', locator: { role: 'button', name: 'Place order' }, expect: { text: 'Order placed' } },
    ],
    { address: '1 Loop Road' },
  );
}
