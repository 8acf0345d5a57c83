import { BufferTarget, CanvasSource, Output, QUALITY_MEDIUM, WebMOutputFormat } from 'mediabunny';

/** A key frame at least this often, so a player can seek in a long recording. */
const KEY_FRAME_SECONDS = 2;

/**
 * WebCodecs (VP8) through mediabunny's WebM muxer, in a document: the extension's service worker has
 * no VideoEncoder or VideoFrame on Chromium 156. Each JPEG is drawn letterboxed onto a canvas of the
 * video's size and added with its timestamp and duration, so the file keeps the recording's timing.
 * Frames are added when the recording ends (see video-offscreen.ts), not as they come.
 */
export class WebmEncoder {
  readonly #canvas: OffscreenCanvas;
  readonly #context: OffscreenCanvasRenderingContext2D;
  readonly #output: Output<WebMOutputFormat, BufferTarget>;
  readonly #source: CanvasSource;
  readonly #started: Promise<void>;

  constructor(width: number, height: number) {
    this.#canvas = new OffscreenCanvas(width, height);
    const context = this.#canvas.getContext('2d');
    if (context === null) {
      throw new Error('no 2d context for the video canvas');
    }
    this.#context = context;
    this.#output = new Output({ format: new WebMOutputFormat(), target: new BufferTarget() });
    this.#source = new CanvasSource(this.#canvas, {
      codec: 'vp8',
      bitrate: QUALITY_MEDIUM,
      keyFrameInterval: KEY_FRAME_SECONDS,
    });
    this.#output.addVideoTrack(this.#source);
    this.#started = this.#output.start();
  }

  async add(jpeg: Blob, timestamp: number, duration: number): Promise<void> {
    await this.#started;
    const image = await createImageBitmap(jpeg);
    try {
      const { width, height } = this.#canvas;
      const scale = Math.min(width / image.width, height / image.height);
      const drawnWidth = Math.round(image.width * scale);
      const drawnHeight = Math.round(image.height * scale);
      this.#context.fillStyle = '#000';
      this.#context.fillRect(0, 0, width, height);
      this.#context.drawImage(
        image,
        Math.floor((width - drawnWidth) / 2),
        Math.floor((height - drawnHeight) / 2),
        drawnWidth,
        drawnHeight,
      );
    } finally {
      image.close();
    }
    await this.#source.add(timestamp, duration);
  }

  /** Finishes the file and returns its bytes. */
  async finish(): Promise<ArrayBuffer> {
    await this.#started;
    await this.#output.finalize();
    const buffer = this.#output.target.buffer;
    if (buffer === null) {
      throw new Error('the WebM muxer produced no file');
    }
    return buffer;
  }

  async cancel(): Promise<void> {
    await this.#output.cancel();
  }
}
