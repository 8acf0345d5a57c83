import { isRecord } from '../../shared/narrow';

/**
 * The console's and the network's answers for a model: one line per entry with only what tells (the
 * level or status first, then the text or the URL, then where), instead of JSON that repeats every key.
 * A stack keeps its frames, each on a line of its own; the protocol's answer keeps every field.
 */

/** A script's place as a model reads it: its file name (not the whole URL), line and column. */
function placeOf(url: unknown, line: unknown, column: unknown): string {
  if (typeof url !== 'string' || url === '') {
    return '';
  }
  const file =
    url
      .replace(/[?#].*$/, '')
      .split('/')
      .at(-1) ?? url;
  const at = typeof line === 'number' ? `:${line}${typeof column === 'number' ? `:${column}` : ''}` : '';
  return ` (${file === '' ? url : file}${at})`;
}

/** A count with what the bound let go, when it let some go. */
function counted(total: unknown, shown: number, noun: string, dropped: unknown): string {
  const all = typeof total === 'number' ? total : shown;
  const more = all > shown ? `, the newest ${shown} shown` : '';
  const lost = typeof dropped === 'number' && dropped > 0 ? `, ${dropped} older ones let go` : '';
  return `${all} ${noun}${all === 1 ? '' : 's'}${more}${lost}`;
}

/** Stack frames with each script's URL cut to its file name; none when the one frame is the message's own place. */
function framesOf(stack: unknown, place: string): string {
  if (typeof stack !== 'string' || stack === '') {
    return '';
  }
  const frames = stack.replace(/https?:\/\/[^\s)]*\/([^/\s)?#]*)(?:[?#][^\s):]*)?/g, '$1').split('\n');
  const own = place.slice(2, -1);
  return frames.length === 1 && own !== '' && frames[0]?.includes(own) === true ? '' : `\n${frames.join('\n')}`;
}

export function consoleText(record: Record<string, unknown>, where: string): string {
  const messages = Array.isArray(record['messages']) ? record['messages'].filter(isRecord) : [];
  const mark = typeof record['mark'] === 'number' ? ` (mark ${record['mark']}: pass it as since_mark)` : '';
  const lines = messages.map((message) => {
    const source = message['source'] === 'console' ? '' : ` ${String(message['source'])}`;
    const place = placeOf(message['url'], message['line'], message['column']);
    return `[${String(message['level'])}${source}] ${String(message['text'])}${place}${framesOf(message['stack'], place)}`;
  });
  return [
    `${where}${counted(record['total'], messages.length, 'console message', record['dropped'])}${mark}.`,
    ...lines,
  ].join('\n');
}

/** A size as a person reads it. */
function bytes(size: unknown): string {
  if (typeof size !== 'number') {
    return '';
  }
  return size < 1024 ? ` ${size} B` : ` ${(size / 1024).toFixed(1)} kB`;
}

export function networkText(record: Record<string, unknown>, where: string): string {
  const requests = Array.isArray(record['requests']) ? record['requests'].filter(isRecord) : [];
  const lines = requests.map((request) => {
    const status = typeof request['status'] === 'number' ? String(request['status']) : '---';
    const failure =
      typeof request['failure'] === 'string'
        ? ` FAILED ${request['failure']}`
        : request['failed'] === true
          ? ' FAILED'
          : '';
    const time = typeof request['duration_ms'] === 'number' ? ` ${Math.round(request['duration_ms'])} ms` : '';
    const cache = request['from_cache'] === true ? ' (cache)' : '';
    const id = typeof request['id'] === 'string' ? `[${request['id']}] ` : '';
    return `${id}${String(request['method'])} ${status} ${String(request['resource_type']).toLowerCase()} ${String(request['url'])}${time}${bytes(request['encoded_bytes'])}${cache}${failure}`;
  });
  const hint = requests.length > 0 ? ' (network_request takes an id in brackets)' : '';
  return [`${where}${counted(record['total'], requests.length, 'request', record['dropped'])}${hint}.`, ...lines].join(
    '\n',
  );
}
