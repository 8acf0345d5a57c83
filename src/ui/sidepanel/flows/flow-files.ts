/**
 * A flow file the person imports in the side panel, read from a file they pick and checked whole by the
 * flow schema: a bad file is refused naming it and what is wrong. (Exports are the worker's to save:
 * panel-port's `export_flow`.)
 */
import { parseFlow, type Flow } from '../../../protocol/flow';
import { TabpilotError } from '../../../shared/errors';

/** A flow of 500 steps is some 200 KB; a file far larger is no flow, and is not read into the panel. */
export const MAX_FLOW_FILE_BYTES = 2 * 1024 * 1024;

function refuse(message: string): TabpilotError {
  return new TabpilotError('INVALID_PARAMS', message, { details: { field: 'file' } });
}

/** The flow in a file's text, or INVALID_PARAMS saying what is wrong with that file. */
export function flowOfFileText(fileName: string, text: string): Flow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw refuse(`${fileName} is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return parseFlow(value, fileName);
}

export async function readFlowFile(file: File): Promise<Flow> {
  if (file.size > MAX_FLOW_FILE_BYTES) {
    throw refuse(`${file.name} is larger than ${MAX_FLOW_FILE_BYTES / 1024 / 1024} MB: no flow is`);
  }
  return flowOfFileText(file.name, await file.text());
}
