import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from './approval-gate';
import { RunControl, type ApprovalAnnouncer } from './run-control';

const ALPHA = { id: 'alpha', kind: 'native' } as const;
const BETA = { id: 'beta', kind: 'mcp' } as const;
const PANEL = { id: 'p1', kind: 'panel' } as const;

/** Asks one approval of a run that acts as `owner` (none: the person's run), and answers its id. */
async function asking(control: RunControl, owner?: { id: string; kind: 'native' | 'mcp' }) {
  let announced: ApprovalRequest | undefined;
  const announce: ApprovalAnnouncer = {
    requested: (request) => {
      announced = request;
      return Promise.resolve();
    },
    resolved: () => Promise.resolve(),
  };
  const request: ApprovalRequest = {
    run_id: 'r1',
    approval_id: `a-${Math.random()}`,
    action: 'navigate',
    params: {},
    risk: 'new_domain',
    reason: 'a new site',
  };
  const answer = control.asker(announce, owner)(request, new AbortController().signal);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(announced?.approval_id).toBe(request.approval_id);
  return { approvalId: request.approval_id, answer };
}

describe('RunControl approvals: who may answer', () => {
  it("refuses a program's answer to the person's run FORBIDDEN; the person's answer counts", async () => {
    const control = new RunControl();
    const { approvalId, answer } = await asking(control);
    await expect(control.answer(approvalId, true, ALPHA)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      details: { approval_id: approvalId, run_id: 'r1' },
    });
    await control.answer(approvalId, false, PANEL);
    await expect(answer).resolves.toBe(false);
  });

  it('lets the program whose run asked answer it, and refuses another program', async () => {
    const control = new RunControl();
    const { approvalId, answer } = await asking(control, ALPHA);
    await expect(control.answer(approvalId, true, BETA)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // The same name over another kind of connection is another client.
    await expect(control.answer(approvalId, true, { id: 'alpha', kind: 'mcp' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await control.answer(approvalId, true, ALPHA);
    await expect(answer).resolves.toBe(true);
  });

  it("lets the person answer a program's run too", async () => {
    const control = new RunControl();
    const { approvalId, answer } = await asking(control, BETA);
    await control.answer(approvalId, true, PANEL);
    await expect(answer).resolves.toBe(true);
  });
});
