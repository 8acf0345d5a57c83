import type { CommandResponse } from '../../protocol/commands';
import type { WorkerPort } from './port';

interface TabsResult {
  tabs: Array<{ tab_id: string; url: string; title: string; focused: boolean }>;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

/**
 * The minimal panel: attach the current tab, see the controlled tabs, send any protocol action and see
 * its answer. The full panel (element list, timeline, settings) builds on this.
 */
export function mountApp(root: HTMLElement, port: WorkerPort): void {
  const status = element('span', { id: 'status', className: 'status' });
  const tabsList = element('ul', { id: 'tabs' });
  const output = element('pre', { id: 'output' });
  const action = element('input', { id: 'action', value: 'navigate', placeholder: 'action' });
  const params = element('textarea', { id: 'params', value: '{"url": "https://example.com"}', rows: 4 });

  const show = (response: CommandResponse): void => {
    output.textContent = JSON.stringify(response, null, 2);
    output.className = response.ok ? 'ok' : 'error';
  };
  const refreshTabs = async (): Promise<void> => {
    const response = await port.request('tabs');
    tabsList.replaceChildren(
      ...(response.ok ? (response.result as TabsResult).tabs : []).map((tab) =>
        element('li', { className: tab.focused ? 'focused' : '' }, `${tab.tab_id} ${tab.title || tab.url}`),
      ),
    );
  };
  const run = async (name: string, args: Record<string, unknown> = {}): Promise<void> => {
    show(await port.request(name, args));
    await refreshTabs();
  };

  const attach = element('button', { id: 'attach', textContent: 'Attach current tab' });
  attach.addEventListener('click', () => void run('attach'));
  const release = element('button', { id: 'release', textContent: 'Release' });
  release.addEventListener('click', () => void run('release'));
  const send = element('button', { id: 'send', textContent: 'Send' });
  send.addEventListener('click', () => {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(params.value || '{}') as Record<string, unknown>;
    } catch (error) {
      output.textContent = `Params are not valid JSON: ${String(error)}`;
      output.className = 'error';
      return;
    }
    void run(action.value.trim(), parsed);
  });

  root.replaceChildren(
    element('header', {}, element('h1', { textContent: 'tabpilot' }), status),
    element('section', {}, attach, release),
    element('section', {}, element('h2', { textContent: 'Controlled tabs' }), tabsList),
    element('section', {}, element('h2', { textContent: 'Command' }), action, params, send),
    output,
  );
  port.onStatus((value) => {
    status.textContent = value;
    status.dataset['status'] = value;
    if (value === 'connected') {
      void refreshTabs();
    }
  });
}
