/**
 * Gives the memory of a large Buffer back at once instead of when the garbage collector finds it.
 *
 * Decoded pixels (a 1024x1400 result is 4.3 MB) live outside V8's heap, but V8 counts them, and
 * every 64 MB of them not yet collected starts a full mark of the heap. In the worker (a heap of
 * about 70 MB) that cost about 10 ms of CPU per generation, as much as decoding and encoding the
 * picture. Detaching the buffer frees it and its count now (ArrayBuffer.prototype.transfer).
 *
 * Only for a Buffer that owns its whole ArrayBuffer (sharp's raw output does; Node's small pooled
 * Buffers share one and are left alone), and only once nothing reads it any more: afterwards it is
 * empty.
 */
export function releasePixels(pixels: Buffer): void {
  const memory = pixels.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer; readonly detached?: boolean };
  if (pixels.byteOffset !== 0 || memory.byteLength !== pixels.byteLength || memory.detached) return;
  memory.transfer?.(0);
}
