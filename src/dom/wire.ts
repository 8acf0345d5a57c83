import type { CollectResult, ElementLine, Line } from './payload';

/**
 * The collector's result as it leaves the page: lines packed as arrays, so the keys of every line are
 * not sent ten thousand times over. CDP moves a returned string at roughly 130 ms per MB here and a
 * returned object at twice that, so the page sends one JSON string of packed lines (less than half the
 * bytes of the objects). Shared by the in-page entry (pack) and the core (unpack).
 */
type PackedText = [kind: 0, depth: number, text: string];
type PackedClosedHost = [kind: 2, depth: number, id: number];
type PackedElement = [
  kind: 1,
  depth: number,
  tag: string,
  /** -1: not indexed. */
  id: number,
  isNew: 0 | 1,
  role: string | null,
  name: string,
  /** Names and values, alternating. */
  attributes: string[],
  x: number,
  y: number,
  width: number,
  height: number,
  /** Only for scroll containers, shadow hosts and iframes. */
  extra?: Pick<ElementLine, 'scroll' | 'shadow' | 'frame' | 'frameOrigin'>,
];
export type PackedLine = PackedText | PackedClosedHost | PackedElement;

export type PackedCollectResult = Omit<CollectResult, 'lines'> & { lines: PackedLine[] };

function packLine(line: Line): PackedLine {
  switch (line.kind) {
    case 'text':
      return [0, line.depth, line.text];
    case 'closed-host':
      return [2, line.depth, line.id];
    case 'element': {
      const packed: PackedElement = [
        1,
        line.depth,
        line.tag,
        line.id ?? -1,
        line.isNew ? 1 : 0,
        line.role,
        line.name,
        line.attributes.flat(),
        ...line.box,
      ];
      if (line.scroll !== null || line.shadow !== null || line.frame !== null || line.frameOrigin !== null) {
        packed.push({ scroll: line.scroll, shadow: line.shadow, frame: line.frame, frameOrigin: line.frameOrigin });
      }
      return packed;
    }
  }
}

function unpackLine(packed: PackedLine): Line {
  switch (packed[0]) {
    case 0:
      return { kind: 'text', depth: packed[1], text: packed[2] };
    case 2:
      return { kind: 'closed-host', depth: packed[1], id: packed[2] };
    case 1: {
      const [, depth, tag, id, isNew, role, name, flat, x, y, width, height, extra] = packed;
      const attributes: Array<[string, string]> = [];
      for (let at = 0; at + 1 < flat.length; at += 2) {
        attributes.push([flat[at] ?? '', flat[at + 1] ?? '']);
      }
      return {
        kind: 'element',
        depth,
        tag,
        id: id === -1 ? undefined : id,
        isNew: isNew === 1,
        role,
        name,
        attributes,
        box: [x, y, width, height],
        scroll: extra?.scroll ?? null,
        shadow: extra?.shadow ?? null,
        frame: extra?.frame ?? null,
        frameOrigin: extra?.frameOrigin ?? null,
      };
    }
  }
}

/** In the page: the result as the JSON string that crosses CDP. */
export function packCollectResult(result: CollectResult): string {
  const packed: PackedCollectResult = { ...result, lines: result.lines.map(packLine) };
  return JSON.stringify(packed);
}

/** In the core: the string back as the collector's result. */
export function unpackCollectResult(json: string): CollectResult {
  const packed = JSON.parse(json) as PackedCollectResult;
  return { ...packed, lines: packed.lines.map(unpackLine) };
}
