import type { FixtureServer } from './fixture-server';

export const PERF_READY_TITLE = 'perf ready';
/** When the page's largest text appears, and how long its two busy tasks hold the main thread. */
export const LCP_DELAY_MS = 900;
export const LONG_TASK_MS = 200;
export const CLICK_BUSY_MS = 150;
/** How long the field's keydown handler holds the main thread (over the 16 ms the page's observer needs). */
export const KEY_BUSY_MS = 40;

/**
 * A page whose vitals are known from its script: at 300 ms a spacer pushes a box down by its own height
 * and more (one layout shift, whose score the page computes from its viewport as the Layout Instability
 * spec does: the union of the box's old and new visible areas over the viewport's, times the distance over
 * the viewport's larger side); at LCP_DELAY_MS its largest text appears (drawn over the top, shifting
 * nothing); then a task holds the main thread LONG_TASK_MS; then the title says it is done. The fixed
 * button's click handler holds the main thread CLICK_BUSY_MS before it paints, and the page notes when
 * the browser has timed that interaction. The fixed field takes typed text; its keydown handler is slow.
 */
const PAGE = `<!doctype html><title>perf</title>
<style>
  html, body { margin: 0; overflow: hidden; font-family: sans-serif; }
  #spacer { height: 0; }
  #box { height: 300px; background: #39f; color: #fff; }
  #late { position: absolute; left: 0; top: 0; font-size: 56px; line-height: 64px; }
  #act { position: fixed; right: 10px; bottom: 10px; width: 120px; height: 40px; }
  #field { position: fixed; right: 140px; bottom: 10px; width: 160px; height: 30px; }
</style>
<div id="spacer"></div><div id="box">box</div><div id="late"></div>
<button id="act">act</button><input id="field" aria-label="field">
<script>
const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end) {} };
const MOVED = 400;
window.expectedShift = 0;
const interactions = new Set();
window.timedInteractions = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.interactionId > 0) interactions.add(entry.interactionId);
  }
  window.timedInteractions = interactions.size;
}).observe({ type: 'event', durationThreshold: 16 });
setTimeout(() => {
  const box = document.getElementById('box').getBoundingClientRect();
  const w = innerWidth, h = innerHeight;
  const visible = (top, bottom) => Math.max(0, Math.min(bottom, h) - Math.max(top, 0));
  const union = visible(box.top, box.bottom) + visible(box.top + MOVED, box.bottom + MOVED)
    - visible(Math.max(box.top, box.top + MOVED), Math.min(box.bottom, box.bottom + MOVED));
  window.expectedShift = (union / h) * (MOVED / Math.max(w, h));
  document.getElementById('spacer').style.height = MOVED + 'px';
}, 300);
setTimeout(() => {
  document.getElementById('late').textContent = 'The largest text of this page comes late, on purpose.';
}, ${LCP_DELAY_MS});
setTimeout(() => busy(${LONG_TASK_MS}), ${LCP_DELAY_MS + 400});
setTimeout(() => { document.title = '${PERF_READY_TITLE}'; }, ${LCP_DELAY_MS + 900});
document.getElementById('field').addEventListener('keydown', () => busy(${KEY_BUSY_MS}));
document.getElementById('act').addEventListener('click', () => {
  busy(${CLICK_BUSY_MS});
  document.getElementById('act').textContent = 'done';
});
</script>`;

export function addPerformancePage(server: FixtureServer): void {
  server.route('/perf/vitals.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    res.end(PAGE);
  });
}
