import type { NativeHostState, NativeStatus } from '../../../protocol/native-panel';
import { ConsentRequest, type ConsentAnswerHandler } from './consent-request';

function hostText(enabled: boolean, host: NativeHostState): string {
  if (!enabled || host.state === 'off') {
    return 'Native clients are off (Settings: native_clients.enabled).';
  }
  switch (host.state) {
    case 'connecting':
      return 'Starting the native host…';
    case 'connected':
      return `Native host running${host.pid === null ? '' : ` (pid ${host.pid}${host.version === null ? '' : `, ${host.version}`})`}.`;
    case 'waiting':
      return `Native host not running: ${host.error ?? 'unknown reason'}. Retrying${host.retry_at === null ? '' : ` at ${new Date(host.retry_at).toLocaleTimeString()}`}; \`tabpilot doctor\` says what is missing.`;
  }
}

/**
 * The programs on this computer that drive the browser through the native host: the host's state,
 * then each client with its tabs, Allow/Refuse while it waits for the person, and Disconnect.
 */
export function NativeClients(props: {
  native: NativeStatus | undefined;
  onDisconnect: (client: string) => void;
  onAnswer: ConsentAnswerHandler;
}): preact.JSX.Element | null {
  const { native } = props;
  if (native === undefined) {
    return null;
  }
  return (
    <section id="native" class="native" aria-label="Native clients">
      <p id="native-host" class="muted" data-state={native.enabled ? native.host.state : 'off'}>
        {hostText(native.enabled, native.host)}
      </p>
      {native.clients.length > 0 && (
        <ul id="native-clients" class="tabs">
          {native.clients.map((client) => (
            <li key={client.name} data-client={client.name} data-approval={client.approval}>
              <div class="row">
                <strong class="client-name">{client.name}</strong>
                <span class="badge muted">
                  {client.connections === 0
                    ? 'not connected'
                    : `${client.connections} connection${client.connections === 1 ? '' : 's'}`}
                </span>
                {client.approval === 'pending' && (
                  <>
                    <button
                      type="button"
                      class="primary"
                      data-action="allow"
                      title="Allow every connection of this name waiting now, this time only"
                      onClick={() => props.onAnswer(client.name, true)}
                    >
                      Allow once
                    </button>
                    <button type="button" data-action="refuse" onClick={() => props.onAnswer(client.name, false)}>
                      Deny
                    </button>
                  </>
                )}
                {client.approval === 'denied' && <span class="badge">refused</span>}
                <button
                  type="button"
                  class="link"
                  data-action="disconnect"
                  onClick={() => props.onDisconnect(client.name)}
                >
                  Disconnect
                </button>
              </div>
              {client.waiting.map((waiting) => (
                <ConsentRequest key={waiting.conn} client={client.name} waiting={waiting} onAnswer={props.onAnswer} />
              ))}
              <ul class="client-tabs">
                {client.tabs.map((tab) => (
                  <li key={tab.tab_id} data-tab-id={tab.tab_id}>
                    <span class="tab-id">{tab.tab_id}</span>
                    <span class="tab-title" title={tab.url}>
                      {tab.title || tab.url}
                    </span>
                    {tab.focused && <span class="badge">its tab</span>}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
