/**
 * QR decoding with jsqr, loaded on demand (only the scan dialog needs it): from a video
 * frame or an uploaded image, through a canvas. Returns the decoded text or null.
 */
type Decoder = (
  data: Uint8ClampedArray,
  width: number,
  height: number,
  options?: { inversionAttempts?: 'dontInvert' | 'attemptBoth' },
) => { data: string } | null;

let decoder: Promise<Decoder> | null = null;

function loadDecoder(): Promise<Decoder> {
  // jsqr is a CommonJS bundle: depending on the interop the function is the default export or its `default`.
  decoder ??= import('jsqr').then((module: unknown) => {
    const candidate = (module as { default?: unknown }).default;
    const fn = typeof candidate === 'function' ? candidate : (candidate as { default?: unknown } | undefined)?.default;
    if (typeof fn !== 'function') throw new Error('jsqr failed to load');
    return fn as Decoder;
  });
  return decoder;
}

const MAX_SIDE_PX = 1024;

export async function decodeQrFrom(
  source: HTMLVideoElement | HTMLImageElement,
  canvas: HTMLCanvasElement = document.createElement('canvas'),
): Promise<string | null> {
  const width = source instanceof HTMLVideoElement ? source.videoWidth : source.naturalWidth;
  const height = source instanceof HTMLVideoElement ? source.videoHeight : source.naturalHeight;
  if (!width || !height) return null;
  const scale = Math.min(1, MAX_SIDE_PX / Math.max(width, height));
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  const image = context.getImageData(0, 0, canvas.width, canvas.height);
  const decode = await loadDecoder();
  return decode(image.data, image.width, image.height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
}

export function loadImage(file: File): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      resolve(image);
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('Failed to load the image. Please select a valid image file.'));
    };
    image.src = url;
  });
}
