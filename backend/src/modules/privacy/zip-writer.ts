import { once } from 'node:events';
import { promisify } from 'node:util';
import { crc32, deflateRaw } from 'node:zlib';
import type { Writable } from 'node:stream';

const deflate = promisify(deflateRaw);

/** Beyond this (4 GiB) a ZIP needs the ZIP64 extension, which this writer does not make. */
const ZIP32_LIMIT = 0xffffffff;

interface Entry {
  name: Buffer;
  crc: number;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
  time: number;
  date: number;
}

/** MS-DOS date and time of a Date (the ZIP format's; two-second precision, local fields read as UTC). */
function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getUTCFullYear());
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/**
 * A ZIP archive written as it goes (PKWARE APPNOTE 6.3.x, sections 4.3.7 local file header, 4.3.12
 * central directory header, 4.3.16 end of central directory): each entry is written whole (its
 * CRC-32 and sizes known before its header, so no data descriptor is needed), deflated or stored
 * (pictures and videos are compressed already), with UTF-8 names (flag bit 11). The output's
 * back-pressure is respected; at most one entry is in memory at a time. No ZIP64: an archive that
 * would pass 4 GiB throws instead of writing a broken one.
 */
export class ZipWriter {
  private readonly entries: Entry[] = [];
  private offset = 0;

  constructor(private readonly out: Writable) {}

  /** Adds a file; `compress` deflates it (text, JSON), otherwise it is stored as it is. */
  async add(name: string, data: Buffer, options: { compress?: boolean; modified?: Date } = {}): Promise<void> {
    const compressed = options.compress ? await deflate(data) : data;
    const method = options.compress ? 8 : 0;
    const fileName = Buffer.from(name, 'utf8');
    const { time, date } = dosDateTime(options.modified ?? new Date());
    const crc = crc32(data);
    if (this.offset + 30 + fileName.length + compressed.length > ZIP32_LIMIT)
      throw new Error('the archive would pass 4 GiB (ZIP64 is not made)');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    header.writeUInt16LE(0x0800, 6); // UTF-8 names
    header.writeUInt16LE(method, 8);
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(compressed.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(fileName.length, 26);
    header.writeUInt16LE(0, 28);
    this.entries.push({
      name: fileName,
      crc,
      method,
      compressedSize: compressed.length,
      size: data.length,
      offset: this.offset,
      time,
      date,
    });
    await this.write(header);
    await this.write(fileName);
    await this.write(compressed);
  }

  /** Writes the central directory and the end record; the archive is complete after it (the output is not ended). */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const e of this.entries) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(20, 4); // made by: 2.0
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(0x0800, 8);
      header.writeUInt16LE(e.method, 10);
      header.writeUInt16LE(e.time, 12);
      header.writeUInt16LE(e.date, 14);
      header.writeUInt32LE(e.crc, 16);
      header.writeUInt32LE(e.compressedSize, 20);
      header.writeUInt32LE(e.size, 24);
      header.writeUInt16LE(e.name.length, 28);
      // extra field, comment, disk number, internal and external attributes: 0
      header.writeUInt32LE(e.offset, 42);
      await this.write(header);
      await this.write(e.name);
    }
    const size = this.offset - start;
    if (this.offset > ZIP32_LIMIT || this.entries.length > 0xffff) throw new Error('the archive is too large for ZIP without ZIP64');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(size, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
  }

  private async write(chunk: Buffer): Promise<void> {
    if (this.out.destroyed) throw new Error('the download was closed');
    this.offset += chunk.length;
    if (!this.out.write(chunk)) await Promise.race([once(this.out, 'drain'), once(this.out, 'close')]);
  }
}
