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

describe('RunControl steering: who may pause, resume or stop a run', () => {
  const run = (runId: string) => {
    const state = { paused: false, stopped: false };
    return {
      state,
      controlled: {
        runId,
        get paused() {
          return state.paused;
        },
        pause: () => (state.paused = true),
        resume: () => (state.paused = false),
        stop: () => (state.stopped = true),
      },
    };
  };

  it("refuses a program steering the person's run FORBIDDEN naming the run; the person steers it", () => {
    const control = new RunControl();
    const { controlled } = run('r1');
    control.begin(controlled);
    for (const action of ['pause_run', 'resume_run', 'stop_run']) {
      expect(() => control.steered(null, ALPHA, action)).toThrow(
        expect.objectContaining({ code: 'FORBIDDEN', details: { run_id: 'r1' } }),
      );
      expect(() => control.steered('r1', BETA, action)).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    }
    expect(control.steered(null, PANEL, 'pause_run')).toBe(controlled);
  });

  it('lets a program steer its own run, the person too, and refuses another program (the same name over another kind too)', () => {
    const control = new RunControl();
    const { controlled } = run('r2');
    control.begin(controlled, ALPHA);
    expect(control.steered('r2', ALPHA, 'stop_run')).toBe(controlled);
    expect(control.steered(null, PANEL, 'stop_run')).toBe(controlled);
    expect(() => control.steered(null, BETA, 'pause_run')).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(() => control.steered(null, { id: 'alpha', kind: 'mcp' }, 'pause_run')).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN' }),
    );
  });

  it('answers INVALID_PARAMS before any owner check when no run is going, and forgets the owner when the run ends', () => {
    const control = new RunControl();
    expect(() => control.steered(null, ALPHA, 'stop_run')).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS' }));
    const end = control.begin(run('r3').controlled, ALPHA);
    end();
    control.begin(run('r4').controlled);
    expect(() => control.steered(null, ALPHA, 'stop_run')).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
  });
});
