const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  html: 'text/html',
  xml: 'application/xml',
  zip: 'application/zip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  bin: 'application/octet-stream',
};

/** The file type browser-use reports: the extension of the name, lower case, or null. */
export function fileTypeOf(name: string): string | null {
  const dot = name.lastIndexOf('.');
  return dot <= 0 || dot === name.length - 1 ? null : name.slice(dot + 1).toLowerCase();
}

/** A MIME type from a file name, where the platform does not say (the Browser domain's downloads). */
export function mimeTypeOf(name: string): string | null {
  const type = fileTypeOf(name);
  return type === null ? null : (BY_EXTENSION[type] ?? 'application/octet-stream');
}

/** The last part of a path (either separator). */
export function baseName(path: string): string {
  return path.split(/[/\\]/).pop() ?? path;
}

/** A file name for a saved PDF from its URL: the path's last part, forced to end in .pdf. */
export function pdfNameOf(url: string): string {
  let name = 'document';
  try {
    name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || 'document';
  } catch {
    // An unreadable URL still gives a file, under a plain name.
    name = 'document';
  }
  const safe = name.replace(/[\0/\\<>:"|?*]/g, '_').replace(/^\.+/, '') || 'document';
  return /\.pdf$/i.test(safe) ? safe : `${safe}.pdf`;
}
