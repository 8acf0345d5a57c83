import { describe, expect, it } from 'vitest';
import { RouteEvent } from '../../protocol/actions/route.actions';
import { MAX_ROUTE_BODY_BYTES } from '../../protocol/routes';
import { TabpilotError } from '../../shared/errors';
import type { ArtifactFiles } from '../artifacts/artifact-files';
import { routeSpecOf } from './route-spec';

/** The payload as the schema gives it to the handler (defaults filled in). */
function payload(fields: Record<string, unknown>) {
  return RouteEvent.payloadSchema.parse({ target_id: 'T', op: 'add', url_pattern: '*/x', ...fields });
}

/** Artifact files that hold one file, `mock.json`; anything else is refused as the platforms refuse it. */
function filesWith(bytes: Uint8Array): ArtifactFiles {
  const unused = (): never => {
    throw new Error('not used');
  };
  return {
    check: unused,
    folder: unused,
    openRandomAccess: unused,
    writeFile: unused,
    readFile: (path, field) =>
      path === 'mock.json'
        ? Promise.resolve(bytes)
        : Promise.reject(new TabpilotError('INVALID_PARAMS', `${field}: cannot read ${path}`, { details: { field } })),
  };
}

const base64 = (text: string): string => Buffer.from(text).toString('base64');

describe('routeSpecOf', () => {
  it('blocks with blocked_by_client unless another reason is named', async () => {
    expect(await routeSpecOf(payload({ block: true }), undefined)).toEqual({
      urlPattern: '*/x',
      resourceType: undefined,
      answer: { kind: 'block', reason: 'blocked_by_client' },
    });
    expect((await routeSpecOf(payload({ block: true, error_reason: 'failed' }), undefined)).answer).toEqual({
      kind: 'block',
      reason: 'failed',
    });
  });

  it('encodes a text body as UTF-8 and types it text/plain unless a Content-Type is given', async () => {
    expect((await routeSpecOf(payload({ fulfill: { body: 'héllo' } }), undefined)).answer).toEqual({
      kind: 'fulfill',
      status: 200,
      headers: [{ name: 'Content-Type', value: 'text/plain; charset=utf-8' }],
      bodyBase64: base64('héllo'),
    });
    const typed = await routeSpecOf(
      payload({ fulfill: { body: '{}', headers: { 'content-type': 'x/y' } } }),
      undefined,
    );
    expect(typed.answer).toMatchObject({ headers: [{ name: 'content-type', value: 'x/y' }] });
    // content_type wins over a Content-Type among the headers.
    const both = await routeSpecOf(
      payload({
        fulfill: { body: '{}', content_type: 'application/json', headers: { 'Content-Type': 'x/y', A: 'b' } },
      }),
      undefined,
    );
    expect(both.answer).toMatchObject({
      headers: [
        { name: 'A', value: 'b' },
        { name: 'Content-Type', value: 'application/json' },
      ],
    });
    // No body, no type: a redirect is only its status and Location.
    const redirect = await routeSpecOf(payload({ fulfill: { status: 302, headers: { Location: '/y' } } }), undefined);
    expect(redirect.answer).toEqual({
      kind: 'fulfill',
      status: 302,
      headers: [{ name: 'Location', value: '/y' }],
      bodyBase64: '',
    });
  });

  it('reads a body_file once through the artifact files, bounded, and refuses it where there are none', async () => {
    const spec = await routeSpecOf(payload({ fulfill: { body_file: 'mock.json' } }), filesWith(Buffer.from('{"f":1}')));
    expect(spec.answer).toMatchObject({ bodyBase64: base64('{"f":1}') });
    await expect(
      routeSpecOf(payload({ fulfill: { body_file: '/etc/passwd' } }), filesWith(new Uint8Array(1))),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'fulfill.body_file' } });
    await expect(
      routeSpecOf(
        payload({ fulfill: { body_file: 'mock.json' } }),
        filesWith(new Uint8Array(MAX_ROUTE_BODY_BYTES + 1)),
      ),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'fulfill.body_file' } });
    await expect(routeSpecOf(payload({ fulfill: { body_file: 'mock.json' } }), undefined)).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
  });
});
