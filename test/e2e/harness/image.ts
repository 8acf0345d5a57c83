import { deflateSync, inflateSync } from 'node:zlib';

/** An RGBA image in memory, for tests that look at what was drawn. */
export interface RgbaImage {
  width: number;
  height: number;
  /** width * height * 4 bytes, row by row. */
  data: Uint8Array;
}

export type Rgb = readonly [number, number, number];

export function pixelAt(image: RgbaImage, x: number, y: number): Rgb {
  const offset = (Math.round(y) * image.width + Math.round(x)) * 4;
  return [image.data[offset] ?? 0, image.data[offset + 1] ?? 0, image.data[offset + 2] ?? 0];
}

/** Relative luminance (0 black .. 1 white), as WCAG defines it. */
export function luminance([r, g, b]: Rgb): number {
  const channel = (value: number): number => {
    const s = value / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

const PNG_SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/** Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium's Page.captureScreenshot writes). */
export function decodePng(bytes: Uint8Array): RgbaImage {
  const buffer = Buffer.from(bytes);
  if (!buffer.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw new Error('not a PNG');
  }
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const body = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [bitDepth, colorType, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (bitDepth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6)) {
        throw new Error(`unsupported PNG: bit depth ${bitDepth}, colour type ${colorType}, interlace ${interlace}`);
      }
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      idat.push(body);
    }
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] ?? 0;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? (pixels[y * stride + x - channels] ?? 0) : 0;
      const up = y > 0 ? (pixels[(y - 1) * stride + x] ?? 0) : 0;
      const upLeft = y > 0 && x >= channels ? (pixels[(y - 1) * stride + x - channels] ?? 0) : 0;
      pixels[y * stride + x] = ((line[x] ?? 0) + predict(filter, left, up, upLeft)) & 0xff;
    }
  }
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    data[i * 4] = pixels[i * channels] ?? 0;
    data[i * 4 + 1] = pixels[i * channels + 1] ?? 0;
    data[i * 4 + 2] = pixels[i * channels + 2] ?? 0;
    data[i * 4 + 3] = channels === 4 ? (pixels[i * channels + 3] ?? 0) : 255;
  }
  return { width, height, data };
}

function predict(filter: number, left: number, up: number, upLeft: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return Math.floor((left + up) / 2);
    case 4: {
      const p = left + up - upLeft;
      const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
      return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
    }
    default:
      throw new Error(`bad PNG filter ${filter}`);
  }
}

/** Encodes RGBA as a PNG, so a failing test can leave a picture of what it saw. */
export function encodePng(image: RgbaImage): Buffer {
  const stride = image.width * 4;
  const raw = Buffer.alloc((stride + 1) * image.height);
  for (let y = 0; y < image.height; y++) {
    Buffer.from(image.data.buffer, image.data.byteOffset + y * stride, stride).copy(raw, y * (stride + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) {
      c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * Reads an XWD dump, the format Xvfb keeps its screen in with -fbdir: a big-endian header, a colour
 * map, then the pixels (24-bit depth at 32 bits per pixel, masks in the header).
 */
export function decodeXwd(bytes: Uint8Array): RgbaImage {
  const buffer = Buffer.from(bytes);
  const field = (index: number): number => buffer.readUInt32BE(index * 4);
  const headerSize = field(0);
  const width = field(4);
  const height = field(5);
  const byteOrder = field(7);
  const bitsPerPixel = field(11);
  const bytesPerLine = field(12);
  const [redMask, greenMask, blueMask] = [field(14), field(15), field(16)];
  const colormapEntries = field(19);
  if (bitsPerPixel !== 32) {
    throw new Error(`unsupported XWD: ${bitsPerPixel} bits per pixel`);
  }
  const pixelsAt = headerSize + colormapEntries * 12;
  const data = new Uint8Array(width * height * 4);
  const shift = (mask: number): number => Math.clz32(mask & -mask) ^ 31;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = pixelsAt + y * bytesPerLine + x * 4;
      const value = byteOrder === 0 ? buffer.readUInt32LE(at) : buffer.readUInt32BE(at);
      const out = (y * width + x) * 4;
      data[out] = (value & redMask) >>> shift(redMask);
      data[out + 1] = (value & greenMask) >>> shift(greenMask);
      data[out + 2] = (value & blueMask) >>> shift(blueMask);
      data[out + 3] = 255;
    }
  }
  return { width, height, data };
}
