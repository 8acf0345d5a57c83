/**
 * The page a coding agent debugs, for the console, network and batch figures: it logs at every level,
 * throws, rejects a promise, fetches pages that exist and pages that do not (404), and has the benchmark
 * pages' click target, which counts its clicks.
 */
export const DEBUG_PAGE_NAME = 'debug-console-network';

const LOGS = [
  "console.log('app started', { build: 421, env: 'staging' })",
  "console.info('user restored from session', { id: 7, plan: 'pro' })",
  "console.debug('layout pass', 3, 'ms')",
  "console.warn('deprecated option: legacyMode will be removed in v5')",
  "console.error('failed to load avatar', new Error('avatar 404'))",
  "console.log('cart', [{ sku: 'A-1', qty: 2 }, { sku: 'B-9', qty: 1 }])",
];

export const DEBUG_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Debug me</title></head><body>
<h1>Debug me</h1>
<button id="bench-btn" onclick="window.__benchClicks = (window.__benchClicks || 0) + 1">Bench click target</button>
<script>
window.__benchClicks = 0;
${LOGS.join(';\n')};
for (const name of ['form', 'missing-one', 'listing', 'missing-two', 'missing-three']) {
  fetch('/' + name + '.html').then((response) => console.log(name, response.status));
}
Promise.reject(new Error('unhandled: the config request was aborted'));
setTimeout(() => { throw new TypeError("Cannot read properties of undefined (reading 'total')"); }, 0);
</script></body></html>`;
