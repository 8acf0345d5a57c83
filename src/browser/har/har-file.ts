import type { CdpEventName } from '../../protocol/cdp';
import { base64ToBytes, sha1Hex } from '../../shared/bytes';
import { errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { ArtifactFiles, RandomAccessFile } from '../artifacts/artifact-files';
import type { BrowserConfig } from '../config';
import type { BrowserSessionView } from '../session-view';
import { extensionFor } from './har-entry';
import { HarFileLayout, type FileWrite } from './har-layout';
import { HarRecorder } from './har-recorder';
import { harSecrets } from './har-secrets';
import type { HarCreator } from './har-types';

/** What one recording writes where: from the config's record_har_* fields, or a start_har's params. */
export interface HarSettings {
  path: string;
  /** The config field or the param a bad path is reported under. */
  field: string;
  content: 'omit' | 'embed' | 'attach';
  mode: 'full' | 'minimal';
  maxBodyBytes: number;
  redactHeaders: readonly string[];
}

/** The recording the config's record_har_* fields ask for. */
export function harSettingsOf(config: BrowserConfig): HarSettings {
  return {
    path: config.record_har_path ?? '',
    field: 'record_har_path',
    content: config.record_har_content,
    mode: config.record_har_mode,
    maxBodyBytes: config.record_har_max_body_bytes,
    redactHeaders: config.record_har_redact_headers,
  };
}
/** Network.enable buffers: enough for bodies up to the usual cap to survive until they are fetched. */
const TOTAL_BUFFER_BYTES = 100 * 1024 * 1024;
const RESOURCE_BUFFER_BYTES = 20 * 1024 * 1024;

const EVENTS: readonly CdpEventName[] = [
  'Network.requestWillBeSent',
  'Network.requestWillBeSentExtraInfo',
  'Network.responseReceived',
  'Network.responseReceivedExtraInfo',
  'Network.dataReceived',
  'Network.loadingFinished',
  'Network.loadingFailed',
  'Page.domContentEventFired',
  'Page.loadEventFired',
];

export const TABPILOT_CREATOR: HarCreator = { name: 'tabpilot', version: '0.1.0' };

/** `dir/name.har` gives `dir/name_har_parts` (browser-use's folder for attached bodies). */
export function partsFolderOf(harPath: string): { folder: string; relative: string } {
  const slash = harPath.lastIndexOf('/');
  const dir = slash < 0 ? '' : harPath.slice(0, slash + 1);
  const stem = harPath.slice(slash + 1).replace(/\.har$/i, '');
  return { folder: `${dir}${stem}_har_parts`, relative: `${stem}_har_parts` };
}

/**
 * One HAR being recorded: the recorder fed from every controlled session's Network and Page events, and
 * the file it grows. Writes go out one after another in order; each leaves a complete HAR on disk.
 */
export class HarFile {
  readonly location: string;
  readonly #file: RandomAccessFile;
  readonly #layout = new HarFileLayout();
  readonly #recorder: HarRecorder;
  readonly #disposers: Array<() => void> = [];
  readonly #log: Logger;
  readonly #attached = new Set<string>();
  #writes: Promise<void> = Promise.resolve();
  #closed = false;

  private constructor(
    session: BrowserSessionView,
    files: ArtifactFiles,
    file: RandomAccessFile,
    settings: HarSettings,
    log: Logger,
  ) {
    this.location = file.location;
    this.#file = file;
    this.#log = log;
    const parts = partsFolderOf(settings.path);
    const secrets = harSecrets(() => session.config.sensitive_data);
    this.#recorder = new HarRecorder({
      content: settings.content,
      mode: settings.mode,
      maxBodyBytes: settings.maxBodyBytes,
      redactHeaders: settings.redactHeaders,
      attach: async (base64, mimeType) => {
        const bytes = secrets.body(base64ToBytes(base64), mimeType);
        const name = `${await sha1Hex(bytes)}.${extensionFor(mimeType)}`;
        if (!this.#attached.has(name)) {
          this.#attached.add(name);
          await files.writeFile(`${parts.folder}/${name}`, bytes, {
            field: settings.field,
            atomic: false,
            mimeType: 'application/octet-stream',
          });
        }
        return `${parts.relative}/${name}`;
      },
      onEntry: (entry) => this.#write(this.#layout.addEntry(secrets.entry(entry))),
      onPages: (pages) => this.#write(this.#layout.setPages(secrets.value(pages))),
      log,
    });
    const targets = session.targets;
    for (const event of EVENTS) {
      this.#disposers.push(targets.on(event, (params, source) => this.#recorder.handle(event, params, source)));
    }
    this.#disposers.push(
      targets.addSessionSetup(async (cdp, target) => {
        if (target.type === 'page' || target.type === 'iframe' || target.type === 'worker') {
          await cdp.send('Network.enable', {
            maxTotalBufferSize: TOTAL_BUFFER_BYTES,
            maxResourceBufferSize: RESOURCE_BUFFER_BYTES,
          });
        }
      }),
    );
  }

  /** Opens the file (refusing a path outside the output folder, naming the field) and starts recording. */
  static async open(
    session: BrowserSessionView,
    files: ArtifactFiles,
    settings: HarSettings,
    log: Logger,
  ): Promise<HarFile> {
    const file = await files.openRandomAccess(settings.path, settings.field);
    let browser: HarCreator = { name: 'Chromium', version: '' };
    try {
      const version = await session.targets.root.send('Browser.getVersion');
      const [name = 'Chromium', number = ''] = version.product.split('/');
      browser = { name, version: number };
    } catch (error) {
      log.debug('browser version unknown', { error: errorMessageOf(error) });
    }
    const har = new HarFile(session, files, file, settings, log);
    har.#write(har.#layout.start(TABPILOT_CREATOR, browser));
    await har.#writes;
    log.info('recording a HAR', { location: file.location });
    return har;
  }

  get entryCount(): number {
    return this.#layout.entryCount;
  }

  /** Stops recording: waits for bodies being fetched, writes what is still open, closes the file. */
  async close(): Promise<void> {
    if (this.#closed) {
      return;
    }
    for (const dispose of this.#disposers.splice(0)) {
      dispose();
    }
    await this.#recorder.settle();
    this.#recorder.finish();
    this.#closed = true;
    await this.#writes;
    await this.#file.close();
    this.#log.info('HAR written', { location: this.location, entries: this.#layout.entryCount });
  }

  #write(write: FileWrite): void {
    if (this.#closed) {
      return;
    }
    this.#writes = this.#writes.then(
      () => this.#file.write(write.offset, write.bytes),
      () => this.#file.write(write.offset, write.bytes),
    );
    this.#writes.catch((error: unknown) =>
      this.#log.warn('writing the HAR failed', { location: this.location, error: errorMessageOf(error) }),
    );
  }
}
