/**
 * Draws (or clears) a box around an element for the person watching: the side panel's hover. The box
 * lives in a closed shadow root of its own, above the page, and lets clicks pass through.
 */
const HOST_ID = '__tabpilot-highlight';

export function highlight(element: Element | null, label: string): void {
  const doc = element?.ownerDocument ?? document;
  let host = doc.getElementById(HOST_ID);
  if (element === null) {
    host?.remove();
    return;
  }
  if (host === null) {
    host = doc.createElement('div');
    host.id = HOST_ID;
    host.style.cssText = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647';
    (host as HTMLElement & { __root?: ShadowRoot }).__root = host.attachShadow({ mode: 'closed' });
    doc.documentElement.append(host);
  }
  element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const rect = element.getBoundingClientRect();
  const box = doc.createElement('div');
  box.style.cssText = `position:fixed;left:${rect.left}px;top:${rect.top}px;width:${rect.width}px;height:${rect.height}px;outline:2px solid #e8590c;background:rgba(232,89,12,.12);border-radius:2px`;
  const tag = doc.createElement('span');
  tag.textContent = label;
  tag.style.cssText =
    'position:absolute;left:0;top:-18px;font:12px/16px system-ui;background:#e8590c;color:#fff;padding:0 4px;border-radius:2px';
  box.append(tag);
  // The shadow root is closed to the page; our world keeps its own reference on the host object.
  (host as HTMLElement & { __root?: ShadowRoot }).__root?.replaceChildren(box);
}
