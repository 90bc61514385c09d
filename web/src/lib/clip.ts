// A clip of the animation for slides that cannot embed an iframe: the run is stepped through
// a virtual-time range, each step drawn as the figure (lib/figure.ts) onto a canvas whose
// stream MediaRecorder encodes to WebM. Each frame is held 1/fps s of wall time, so the clip
// plays at `fps` whatever the machine's speed.
import { FIGURE } from './figure';

export interface ClipJob {
  /** Frames to record (the first is the range's start). */
  frames: number;
  fps: number;
  /** Bring the run to frame i's time; resolves when it is there. */
  advance(i: number): Promise<void>;
  /** The figure of the state now, as SVG text. */
  figure(): string;
  onProgress(done: number): void;
  signal: AbortSignal;
}

export class ClipCancelled extends Error {
  constructor() {
    super('the clip was cancelled');
  }
}

export function clipSupported(): boolean {
  return typeof MediaRecorder !== 'undefined' && typeof HTMLCanvasElement.prototype.captureStream === 'function';
}

async function drawSvg(ctx: CanvasRenderingContext2D, svg: string): Promise<void> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    ctx.drawImage(img, 0, 0, FIGURE.w, FIGURE.h);
  } finally {
    URL.revokeObjectURL(url);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Record the clip; rejects with ClipCancelled when `signal` aborts. */
export async function recordClip(job: ClipJob): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = FIGURE.w;
  canvas.height = FIGURE.h;
  const ctx = canvas.getContext('2d')!;
  const stream = canvas.captureStream(job.fps);
  const type = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'].find((t) => MediaRecorder.isTypeSupported(t)) ?? 'video/webm';
  const rec = new MediaRecorder(stream, { mimeType: type, videoBitsPerSecond: 4_000_000 });
  const chunks: Blob[] = [];
  rec.ondataavailable = (e) => e.data.size > 0 && chunks.push(e.data);
  const stopped = new Promise<void>((r) => (rec.onstop = () => r()));
  try {
    await job.advance(0);
    await drawSvg(ctx, job.figure());
    rec.start(250);
    for (let i = 0; i < job.frames; i++) {
      if (job.signal.aborted) throw new ClipCancelled();
      if (i > 0) {
        await job.advance(i);
        await drawSvg(ctx, job.figure());
      }
      job.onProgress(i + 1);
      await sleep(1000 / job.fps);
    }
    rec.stop();
    await stopped;
    return new Blob(chunks, { type: 'video/webm' });
  } finally {
    if (rec.state !== 'inactive') rec.stop();
    stream.getTracks().forEach((t) => t.stop());
  }
}
