import { crc32, inflateRawSync } from 'node:zlib';

/** One file of a ZIP, as read back. */
export interface ZipFile {
  name: string;
  data: Buffer;
}

/**
 * Reads a whole ZIP archive (PKWARE APPNOTE: the end of central directory record, then each
 * central directory entry and its local header), inflating deflated entries and checking every
 * CRC-32 and size: for tests of archives the API makes. Throws on anything malformed.
 */
export function readZip(zip: Buffer): ZipFile[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || zip.length - eocd < 22) throw new Error('no end of central directory record');
  const entries = zip.readUInt16LE(eocd + 10);
  const size = zip.readUInt32LE(eocd + 12);
  let at = zip.readUInt32LE(eocd + 16);
  if (at + size !== eocd) throw new Error('the central directory is not where the end record says');
  const files: ZipFile[] = [];
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`entry ${i}: no central directory header`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    const length = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`${name}: no local header`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    const data = method === 8 ? inflateRawSync(raw) : method === 0 ? Buffer.from(raw) : null;
    if (!data) throw new Error(`${name}: unknown method ${method}`);
    if (data.length !== length || crc32(data) !== crc) throw new Error(`${name}: size or CRC-32 does not match`);
    files.push({ name, data });
    at += 46 + nameLength + extra + comment;
  }
  return files;
}
