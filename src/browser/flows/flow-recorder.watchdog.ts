import { forgetWorld, pageFunctions, WORLD_NAME } from '../../dom/page-bridge';
import type { PerceptionHandleFunctions, PerceptionValueFunctions, RecordedInput } from '../../dom/payload';
import { RecordFlowStartEvent, RecordFlowStopEvent } from '../../protocol/actions/flows.actions';
import { BrowserStoppedEvent } from '../../protocol/events/lifecycle.events';
import { ReleaseTabEvent, TabClosedEvent, TabLeaseEndedEvent } from '../../protocol/events/tabs.events';
import { utf8 } from '../../shared/bytes';
import { errorMessageOf, TabpilotError } from '../../shared/errors';
import { bestEffort } from '../../shared/logger';
import type { CdpSession } from '../../cdp/session';
import { defineWatchdog } from '../define-watchdog';
import { requireArtifacts } from '../host';
import { FlowRecording } from './flow-recording';
import { RecordedInputSchema } from './recorded-input';

/** The binding the recorder calls in tabpilot's world (and only there: it is given to that world's name). */
const BINDING = '__tabpilotRecordFlow';
const PAGE = pageFunctions<PerceptionValueFunctions, PerceptionHandleFunctions>();

interface Running {
  targetId: string;
  recording: FlowRecording;
  dispose: () => void;
}

/** `flow-20261205-023512.json`: a new name for each recording, in the order they were made. */
function defaultFileName(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `flow-${stamp}.json`;
}

/** Starts the page's recorder in the tab's current document; a world made before the binding is replaced once. */
async function listen(session: CdpSession): Promise<void> {
  if (await PAGE.callInFrame(session, 'recordListen', BINDING)) {
    return;
  }
  forgetWorld(session);
  if (!(await PAGE.callInFrame(session, 'recordListen', BINDING))) {
    throw new TabpilotError('INTERNAL', "the page's recorder found no way to tell the worker (its binding is missing)");
  }
}

/**
 * FlowRecorderWatchdog: `record_start` and `record_stop`, a person's own input in one tab recorded as a
 * flow (docs/flows.md, Recording). The page's recorder (src/dom/in-page/recorder.ts) tells each trusted
 * input through a CDP binding given to tabpilot's isolated world alone; a new document of the tab gets
 * the recorder again. One recording at a time; it ends, unsaved, when the tab is released or closed, so
 * nothing keeps watching a tab tabpilot let go.
 */
export const flowRecorderWatchdog = defineWatchdog({
  name: 'flow-recorder',
  listensTo: [
    RecordFlowStartEvent,
    RecordFlowStopEvent,
    ReleaseTabEvent,
    TabLeaseEndedEvent,
    TabClosedEvent,
    BrowserStoppedEvent,
  ],
  emits: [],
  setup: (ctx) => {
    let running: Running | undefined;

    const end = async (targetIds: readonly string[] | 'any'): Promise<Running | undefined> => {
      const current = running;
      if (current === undefined || (targetIds !== 'any' && !targetIds.includes(current.targetId))) {
        return undefined;
      }
      running = undefined;
      current.dispose();
      const session = ctx.session.targets.sessionFor(current.targetId);
      if (session !== undefined && !session.detached) {
        await bestEffort(session.send('Runtime.removeBinding', { name: BINDING }), ctx.log, 'removing the binding');
        await bestEffort(PAGE.callInFrame(session, 'recordUnlisten'), ctx.log, 'ending the recorder in the page');
      }
      return current;
    };

    const onInput = (targetId: string, payload: string): void => {
      const current = running;
      if (current?.targetId !== targetId) {
        return;
      }
      let input: RecordedInput;
      try {
        input = RecordedInputSchema.parse(JSON.parse(payload));
      } catch (error) {
        ctx.log.warn('the page told the flow recorder something it does not read', { error: errorMessageOf(error) });
        return;
      }
      const url = ctx.session.targets.target(targetId)?.url ?? '';
      current.recording.add(input, url, ctx.session.config.sensitive_data, Date.now());
    };

    ctx.signal.addEventListener('abort', () => void end('any'), { once: true });

    return {
      RecordFlowStartEvent: async (event) => {
        const { target_id: targetId, name } = event.payload;
        const session = ctx.session.targets.requireSession(targetId);
        if (running !== undefined) {
          throw new TabpilotError(
            'FORBIDDEN',
            running.targetId === targetId
              ? 'this tab is being recorded already: record_stop saves the flow'
              : 'another tab is being recorded (one recording at a time): record_stop saves its flow first',
          );
        }
        const url = ctx.session.targets.target(targetId)?.url ?? 'about:blank';
        const disposers = [
          ctx.session.targets.on('Runtime.bindingCalled', (params, source) => {
            if (params.name === BINDING && source.target?.targetId === targetId) {
              onInput(targetId, params.payload);
            }
          }),
          ctx.session.targets.on('Page.frameNavigated', (params, source) => {
            if (params.frame.parentId !== undefined || source.target?.targetId !== targetId) {
              return;
            }
            running?.recording.navigated(params.frame.url, Date.now());
            void bestEffort(listen(source.session), ctx.log, 'recording in the new document');
          }),
        ];
        running = {
          targetId,
          recording: new FlowRecording(name, url, Date.now()),
          dispose: () => disposers.forEach((dispose) => dispose()),
        };
        try {
          await session.send('Runtime.addBinding', { name: BINDING, executionContextName: WORLD_NAME });
          await listen(session);
        } catch (error) {
          await end([targetId]);
          throw error;
        }
        return { recording: true as const, url };
      },

      RecordFlowStopEvent: async (event) => {
        const targetId = running?.targetId;
        const session = targetId === undefined ? undefined : ctx.session.targets.sessionFor(targetId);
        const path =
          session === undefined || session.detached
            ? undefined
            : await PAGE.callInFrame(session, 'recordPath').catch(() => undefined);
        const stopped = await end('any');
        if (stopped === undefined) {
          throw new TabpilotError('ELEMENT_NOT_FOUND', 'no flow is being recorded: record_start begins one');
        }
        const flow = stopped.recording.finish(path ?? '');
        const name = event.payload.file_name ?? defaultFileName(new Date());
        const file = await requireArtifacts(ctx.session.host).writeFile(
          /\.json$/i.test(name) ? name : `${name}.json`,
          utf8(`${JSON.stringify(flow, null, 2)}\n`),
          { field: 'file_name', atomic: true, mimeType: 'application/json' },
        );
        ctx.log.info('flow recorded', { location: file, steps: flow.steps.length, dropped: stopped.recording.dropped });
        return { flow, path: file };
      },

      // Runs before the tabs watchdog lets the tab go, while its session still answers.
      ReleaseTabEvent: async (event) => {
        const only = event.payload.target_id;
        if (only !== undefined && ctx.session.host.tabControl === undefined) {
          return; // Where tabpilot owns the browser the tabs watchdog refuses a release of one tab.
        }
        await end(only === undefined ? 'any' : [only]);
      },
      TabLeaseEndedEvent: async (event) => {
        await end(event.payload.target_ids);
      },
      TabClosedEvent: async (event) => {
        await end([event.payload.target_id]);
      },
      BrowserStoppedEvent: () => {
        running?.dispose();
        running = undefined;
      },
    };
  },
});
