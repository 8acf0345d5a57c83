import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { OutputFiles } from '../../../tools/mcp/answer-budget';
import type { McpResourceLink } from '../../../tools/mcp/mcp-shapes';
import { PRIVATE_FILE_MODE, ensurePrivateFolder } from '../private-folder';

export interface StoredResource {
  uri: string;
  name: string;
  mimeType: string;
}

/**
 * The MCP server's files on disk: big answers it writes itself (a long page's text) and files the
 * browser side saved (PDFs, screenshots by file_name), each answered as a file:// resource link. Only
 * these can be read back through resources/read: the server never serves other files.
 */
export class OutputFolder implements OutputFiles {
  readonly dir: string;
  readonly #known = new Map<string, StoredResource>();
  #count = 0;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  write(name: string, content: { text: string } | { base64: string }, mimeType: string): Promise<McpResourceLink> {
    ensurePrivateFolder(this.dir, '--output-dir');
    const bytes = 'text' in content ? Buffer.from(content.text, 'utf8') : Buffer.from(content.base64, 'base64');
    // A time and a counter in front: every answer gets a file of its own, and names sort by age.
    const path = join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${++this.#count}-${name}`);
    writeFileSync(path, bytes, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    return Promise.resolve(this.linkTo(path, mimeType));
  }

  linkTo(path: string, mimeType: string): McpResourceLink {
    const uri = pathToFileURL(path).href;
    const name = basename(path);
    this.#known.set(uri, { uri, name, mimeType });
    let size: number | undefined;
    try {
      size = statSync(path).size;
    } catch {
      // The extension saves through the browser's downloads: the file may be elsewhere or not there yet.
      size = undefined;
    }
    return { type: 'resource_link', uri, name, mimeType, ...(size === undefined ? {} : { size }) };
  }

  list(): StoredResource[] {
    return [...this.#known.values()];
  }

  /** A file this server linked, as text or base64; undefined for any other URI. */
  read(uri: string): { mimeType: string; text: string } | { mimeType: string; blob: string } | undefined {
    const known = this.#known.get(uri);
    if (known === undefined) {
      return undefined;
    }
    const bytes = readFileSync(fileURLToPath(uri));
    return known.mimeType.startsWith('text/')
      ? { mimeType: known.mimeType, text: bytes.toString('utf8') }
      : { mimeType: known.mimeType, blob: bytes.toString('base64') };
  }
}
