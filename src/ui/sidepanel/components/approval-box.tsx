import { useState } from 'preact/hooks';
import { paramsLine, type ApprovalView } from '../agent-runs';
import type { WorkerPort } from '../port';

/** A risky action the agent waits on: what it wants to do and why it is risky, with Approve and Refuse. */
export function ApprovalBox(props: { port: WorkerPort; approval: ApprovalView }): preact.JSX.Element {
  const { approval } = props;
  const [sent, setSent] = useState<string | undefined>(undefined);
  const answer = (approved: boolean): void => {
    setSent(approved ? 'Approving…' : 'Refusing…');
    void props.port
      .request('approve', { approval_id: approval.approval_id, approved })
      .then((response) => setSent(response.ok ? undefined : response.error.message));
  };
  return (
    <div class="approval banner" role="alert" data-approval-id={approval.approval_id} data-risk={approval.risk}>
      <p>
        The agent wants to <code>{approval.action}</code> <span class="muted">{paramsLine(approval.params)}</span>
      </p>
      <p class="approval-reason">{approval.reason}</p>
      <div class="row">
        <button type="button" class="primary approve" disabled={sent !== undefined} onClick={() => answer(true)}>
          Approve
        </button>
        <button type="button" class="danger refuse" disabled={sent !== undefined} onClick={() => answer(false)}>
          Refuse
        </button>
        {sent !== undefined && <span class="muted approval-sent">{sent}</span>}
      </div>
    </div>
  );
}
