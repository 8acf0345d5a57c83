import { TabpilotError, errorMessageOf } from '../../shared/errors';
import { bestEffort } from '../../shared/logger';
import { siblingHandle, type ElementHandle, type RoutineContext } from './element';
import type { FileBytes, FileSummary } from './in-page-api';
import { callOn, handleOn } from './in-page-call';
import { checkUploadPath } from './upload-policy';

export type UploadSource = { path: string } | { files: FileBytes[] };

export interface UploadOutcome {
  files: FileSummary[];
  method: 'path' | 'bytes';
}

/**
 * Puts files into the file input an element stands for (itself, its label's control, or the input next
 * to a styled button). By path through DOM.setFileInputFiles where the browser can read that path; by
 * bytes otherwise: a File built in the page and set through DataTransfer, with the input and change
 * events a user's pick fires (the extension's clients have no path on the browser's machine).
 */
export async function uploadFiles(
  ctx: RoutineContext,
  handle: ElementHandle,
  source: UploadSource,
): Promise<UploadOutcome> {
  // A file this session downloaded may go back up without its folder in upload_paths.
  if ('path' in source && ctx.downloads?.has(source.path) !== true) {
    checkUploadPath(source.path, ctx.config.upload_paths);
  }
  const inputId = await handleOn(handle.session, handle.objectId, 'fileInputNear');
  if (inputId === null) {
    throw new TabpilotError('INVALID_PARAMS', `${handle.label} is not a file input and there is none next to it`);
  }
  const input = siblingHandle(handle, inputId, `the file input of ${handle.label}`);
  try {
    if ('path' in source) {
      return { files: await setByPath(input, source.path), method: 'path' };
    }
    const set = await callOn(input.session, input.objectId, 'setFiles', source.files);
    if ('error' in set) {
      throw new TabpilotError('INVALID_PARAMS', `${input.label} takes one file (it has no multiple attribute)`);
    }
    return { files: set, method: 'bytes' };
  } finally {
    void bestEffort(
      input.session.send('Runtime.releaseObject', { objectId: inputId }),
      ctx.log,
      'releasing a file input handle',
    );
  }
}

async function setByPath(input: ElementHandle, path: string): Promise<FileSummary[]> {
  try {
    await input.session.send('DOM.setFileInputFiles', { objectId: input.objectId, files: [path] });
  } catch (error) {
    throw new TabpilotError(
      'UNSUPPORTED',
      `This browser connection cannot upload by path (${errorMessageOf(error)}): send the file's bytes instead`,
      { cause: error },
    );
  }
  const files = await callOn(input.session, input.objectId, 'filesOf');
  if (files.length === 0 || files.every((file) => file.size === 0)) {
    await callOn(input.session, input.objectId, 'clearFiles');
    throw new TabpilotError('INVALID_PARAMS', `No readable, non-empty file at ${path} on the browser's machine`, {
      details: { path },
    });
  }
  return files;
}
