import { describe, expect, expectTypeOf, it } from 'vitest';
import { ACTIONS, type ActionName, type ActionParams, type ActionResult } from '../../protocol/actions';
import type { ResultOf } from '../../protocol/define-event';
import type { ClickElementEvent } from '../../protocol/events/actions.events';
import type { BrowserStateRequestEvent } from '../../protocol/events/state.events';
import type { Public } from '../../protocol/public-result';
import type { WorkerPort } from './port';

type Declared = (typeof ACTIONS)[number];
type SuccessWordsOf<N extends ActionName> = NonNullable<Extract<Declared, { name: N }>['panel']['success']>;
declare const _port: WorkerPort;
/** What the panel's `port.request(N, ...)` answers on success. */
type Answer<N extends ActionName> = Extract<Awaited<ReturnType<typeof _port.request<N>>>, { ok: true }>['result'];

/**
 * What the panel reads is what the action declares: `npm run typecheck` compiles this file, so a panel
 * answer typed apart from its declaration, or words reading a field the result lacks, fail the build.
 * Each `@ts-expect-error` fails the type check if the line under it ever compiles.
 */
describe('the panel’s typed actions', () => {
  it('answer the result each action declares, with tab ids', () => {
    expectTypeOf<Answer<'state'>>().toEqualTypeOf<Public<ResultOf<typeof BrowserStateRequestEvent>>>();
    expectTypeOf<Answer<'click'>>().toEqualTypeOf<ActionResult<'click'>>();
    expectTypeOf<ActionResult<'click'>>().toEqualTypeOf<Public<ResultOf<typeof ClickElementEvent>>>();
    expectTypeOf<ActionResult<'click'>>().toHaveProperty('opened_tab_id');
    // @ts-expect-error -- the protocol never shows a target id
    expectTypeOf<ActionResult<'click'>>().toHaveProperty('opened_target_id');
    expect(ACTIONS.map((action) => action.name)).toContain('click');
  });

  it('give the panel’s words the declared params and result', () => {
    expectTypeOf<Parameters<SuccessWordsOf<'navigate'>>[1]>().toEqualTypeOf<ActionResult<'navigate'>>();
    expectTypeOf<Parameters<SuccessWordsOf<'search_page'>>[0]>().toEqualTypeOf<ActionParams<'search_page'>>();
    expectTypeOf<ActionParams<'navigate'>>().toHaveProperty('tab_id');
    // @ts-expect-error -- a client names its tab by tab_id
    expectTypeOf<ActionParams<'navigate'>>().toHaveProperty('target_id');
  });

  it('refuse a name no action has', () => {
    // @ts-expect-error -- not an action
    expectTypeOf<ActionResult<'clik'>>().toBeObject();
    expect(ACTIONS.some((action) => (action.name as string) === 'clik')).toBe(false);
  });
});
