/**
 * File inputs: find the one an element stands for (a styled button, its label, a wrapper), and set files
 * from bytes the way a user's pick does (a FileList through DataTransfer, then input and change).
 */
import { isInput, isLabel } from '../../../dom/in-page/realm';
import type { FileBytes, FileSummary } from '../in-page-api';

const ANCESTOR_LEVELS = 3;

function isFileInput(element: Element | null): element is HTMLInputElement {
  return isInput(element) && element.type === 'file';
}

export function fileInputNear(this: Element): Element | null {
  if (isFileInput(this)) {
    return this;
  }
  if (isLabel(this) && isFileInput(this.control)) {
    return this.control;
  }
  const inside = this.querySelector('input[type=file]');
  if (inside !== null) {
    return inside;
  }
  let scope: Element | null = this.parentElement;
  for (let level = 0; level < ANCESTOR_LEVELS && scope !== null; level++) {
    const near = scope.querySelector('input[type=file]');
    if (near !== null) {
      return near;
    }
    scope = scope.parentElement;
  }
  return null;
}

function summary(files: FileList | null): FileSummary[] {
  return Array.from(files ?? [], (file) => ({ name: file.name, size: file.size, type: file.type }));
}

function decode(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) {
    bytes[i] = binary.charCodeAt(i);
  }
  return bytes;
}

export function setFiles(this: Element, files: FileBytes[]): FileSummary[] | { error: 'not-multiple' } {
  const input = this as HTMLInputElement;
  if (files.length > 1 && !input.multiple) {
    return { error: 'not-multiple' };
  }
  const transfer = new DataTransfer();
  for (const file of files) {
    transfer.items.add(new File([decode(file.content_base64)], file.name, { type: file.mime_type }));
  }
  input.files = transfer.files;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
  return summary(input.files);
}

export function filesOf(this: Element): FileSummary[] {
  return summary((this as HTMLInputElement).files);
}

/** Empties the input again (a path that named no readable file). */
export function clearFiles(this: Element): boolean {
  (this as HTMLInputElement).value = '';
  return true;
}
