/** What upload_file takes for a file given by its content. */
export interface FileContent {
  name: string;
  mime_type: string;
  content_base64: string;
}

/** Larger files would make one message of tens of megabytes through the panel's port. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

/**
 * A file the person picked, as upload_file's `files` entry: the panel sends the content, so the
 * upload needs no path on the browser's machine and no upload_paths entry.
 */
export function fileContent(file: File): Promise<FileContent> {
  if (file.size > MAX_UPLOAD_BYTES) {
    return Promise.reject(new Error(`${file.name} is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`));
  }
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      // readAsDataURL always gives a string: "data:<type>;base64,<content>".
      const url = typeof reader.result === 'string' ? reader.result : '';
      resolve({
        name: file.name,
        mime_type: file.type === '' ? 'application/octet-stream' : file.type,
        content_base64: url.slice(url.indexOf(',') + 1),
      });
    };
    reader.onerror = () => reject(reader.error ?? new Error(`could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}
