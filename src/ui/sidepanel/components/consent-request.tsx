import type { NativeClientStatus } from '../../../protocol/native-panel';

export type ConsentAnswerHandler = (
  client: string,
  allow: boolean,
  options?: { remember?: boolean; conn?: string },
) => void;

type Waiting = NativeClientStatus['waiting'][number];

/**
 * One program waiting for the person, shown as the operating system knows it (pid, executable,
 * command line, and the parent that started it), never by the name it gave itself alone; when the
 * system did not vouch for it, the panel says so. Allow once, allow this program until revoked, deny.
 */
export function ConsentRequest(props: {
  client: string;
  waiting: Waiting;
  onAnswer: ConsentAnswerHandler;
}): preact.JSX.Element {
  const { client, waiting, onAnswer } = props;
  const { peer } = waiting;
  const answer = (allow: boolean, remember = false): void => onAnswer(client, allow, { remember, conn: waiting.conn });
  return (
    <div class="consent" data-conn={waiting.conn} data-vouched={peer === null ? 'no' : 'yes'}>
      {peer === null ? (
        <p class="consent-unvouched">
          The system did not vouch for this caller: it names itself {client}
          {waiting.claimed_pid === null ? '' : ` and says it is pid ${waiting.claimed_pid}`}, which any program can
          claim.
        </p>
      ) : (
        <dl class="consent-peer">
          <dt>Program</dt>
          <dd>
            pid <span class="peer-pid">{peer.pid}</span>, <code class="peer-exe">{peer.exe}</code>
          </dd>
          <dt>Command</dt>
          <dd>
            <code class="peer-cmdline">{peer.cmdline}</code>
          </dd>
          <dt>Started by</dt>
          <dd class="peer-parent">
            {peer.parent === null ? (
              'unknown'
            ) : (
              <>
                pid {peer.parent.pid}, <code>{peer.parent.cmdline || peer.parent.exe}</code>
              </>
            )}
          </dd>
        </dl>
      )}
      <div class="row">
        <button type="button" class="primary" data-action="allow-once" onClick={() => answer(true)}>
          Allow once
        </button>
        <button type="button" data-action="allow-always" onClick={() => answer(true, true)}>
          Allow this program until revoked
        </button>
        <button type="button" class="danger" data-action="deny" onClick={() => answer(false)}>
          Deny
        </button>
      </div>
    </div>
  );
}
