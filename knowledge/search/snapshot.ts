import { crc32 } from 'node:zlib';
import { parseSettings, type IndexSettings } from './settings.js';

/**
 * The snapshot container: a magic number, a format version, a JSON header (the settings, a table
 * of sections and a CRC-32 of them), then the sections: typed arrays as raw little-endian bytes
 * (restored by one copy each, no parsing) and JSON for the rest. The checksum turns a damaged file
 * into a clear refusal instead of wrong rankings.
 *
 *   "PKIX" | u32 version | u32 header bytes | header JSON | padding to 4 | sections…
 */

export const SNAPSHOT_FORMAT_VERSION = 1;
const MAGIC = [0x50, 0x4b, 0x49, 0x58]; // "PKIX": Parley Knowledge IndeX
const PREAMBLE_BYTES = 12;

export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
}

export type SectionValue = Uint32Array | Uint8Array | { json: unknown };

interface SectionEntry {
  name: string;
  kind: 'u32' | 'u8' | 'json';
  offset: number;
  length: number;
}

interface Header {
  settings: unknown;
  sections: SectionEntry[];
  crc32: number;
}

export interface DecodedSnapshot {
  settings: IndexSettings;
  /** Whether the snapshot holds a section of this name (one added since version 1 may be missing). */
  has(name: string): boolean;
  u32(name: string): Uint32Array;
  u8(name: string): Uint8Array;
  json(name: string): unknown;
}

const hostIsLittleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function requireLittleEndian(): void {
  // Every platform Node ships for is little-endian; refuse rather than write bytes nobody can read.
  if (!hostIsLittleEndian) throw new SnapshotError('index snapshots need a little-endian machine');
}

export function encodeSnapshot(settings: IndexSettings, sections: Record<string, SectionValue>): Uint8Array {
  requireLittleEndian();
  const encoder = new TextEncoder();
  const bodies: Uint8Array[] = [];
  const entries: SectionEntry[] = [];
  let offset = 0;
  for (const [name, value] of Object.entries(sections)) {
    const body =
      value instanceof Uint32Array || value instanceof Uint8Array
        ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
        : encoder.encode(JSON.stringify(value.json));
    const kind = value instanceof Uint32Array ? 'u32' : value instanceof Uint8Array ? 'u8' : 'json';
    entries.push({ name, kind, offset, length: body.byteLength });
    bodies.push(body);
    offset = align4(offset + body.byteLength);
  }
  // The checksum covers the data region as laid out, padding included, section by section.
  let checksum = 0;
  bodies.forEach((body) => {
    // (zlib's crc32 answers 0 for some empty views instead of the running value.)
    if (body.byteLength > 0) checksum = crc32(body, checksum);
    const padding = align4(body.byteLength) - body.byteLength;
    if (padding > 0) checksum = crc32(new Uint8Array(padding), checksum);
  });
  const header = encoder.encode(
    JSON.stringify({ settings, sections: entries, crc32: checksum } satisfies Header),
  );
  const dataStart = align4(PREAMBLE_BYTES + header.byteLength);
  const bytes = new Uint8Array(dataStart + offset);
  bytes.set(MAGIC, 0);
  const view = new DataView(bytes.buffer);
  view.setUint32(4, SNAPSHOT_FORMAT_VERSION, true);
  view.setUint32(8, header.byteLength, true);
  bytes.set(header, PREAMBLE_BYTES);
  entries.forEach((entry, i) => bytes.set(bodies[i] as Uint8Array, dataStart + entry.offset));
  return bytes;
}

export function decodeSnapshot(bytes: Uint8Array): DecodedSnapshot {
  requireLittleEndian();
  if (!(bytes instanceof Uint8Array)) throw new SnapshotError('an index snapshot must be a Uint8Array');
  if (bytes.byteLength < PREAMBLE_BYTES || MAGIC.some((byte, i) => bytes[i] !== byte)) {
    throw new SnapshotError('not a Parley index snapshot (the PKIX magic number is missing)');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== SNAPSHOT_FORMAT_VERSION) {
    throw new SnapshotError(
      `index snapshot format version ${version} is not supported: this build reads version ${SNAPSHOT_FORMAT_VERSION}; rebuild the index from its documents`,
    );
  }
  const headerLength = view.getUint32(8, true);
  const dataStart = align4(PREAMBLE_BYTES + headerLength);
  if (dataStart > bytes.byteLength) throw new SnapshotError('index snapshot is truncated (header)');
  const decoder = new TextDecoder();
  let header: Header;
  try {
    header = JSON.parse(
      decoder.decode(bytes.subarray(PREAMBLE_BYTES, PREAMBLE_BYTES + headerLength)),
    ) as Header;
  } catch {
    throw new SnapshotError('index snapshot header is not valid JSON');
  }
  if (!Array.isArray(header?.sections)) throw new SnapshotError('index snapshot header has no section table');
  if (crc32(bytes.subarray(dataStart)) !== header.crc32) {
    throw new SnapshotError('index snapshot is damaged: its checksum does not match its contents');
  }
  let settings: IndexSettings;
  try {
    settings = parseSettings(header.settings, 'index snapshot settings');
  } catch (error) {
    throw new SnapshotError((error as Error).message);
  }

  const section = (name: string, kind: SectionEntry['kind']): Uint8Array => {
    const entry = header.sections.find((candidate) => candidate.name === name);
    if (!entry || entry.kind !== kind)
      throw new SnapshotError(`index snapshot has no ${kind} section "${name}"`);
    const start = dataStart + entry.offset;
    const end = start + entry.length;
    if (!Number.isInteger(start) || !Number.isInteger(end) || end > bytes.byteLength || start < dataStart) {
      throw new SnapshotError(`index snapshot is truncated (section "${name}")`);
    }
    return bytes.subarray(start, end);
  };

  return {
    settings,
    has: (name) => header.sections.some((candidate) => candidate.name === name),
    // Copies into a fresh, aligned buffer that does not keep the whole snapshot alive. (Not
    // slice(): on a Node Buffer it returns a view of the same memory.)
    u32: (name) => {
      const body = section(name, 'u32');
      if (body.byteLength % 4 !== 0)
        throw new SnapshotError(`index snapshot section "${name}" is not whole numbers`);
      return new Uint32Array(new Uint8Array(body).buffer);
    },
    u8: (name) => new Uint8Array(section(name, 'u8')),
    json: (name) => {
      try {
        return JSON.parse(decoder.decode(section(name, 'json'))) as unknown;
      } catch (error) {
        if (error instanceof SnapshotError) throw error;
        throw new SnapshotError(`index snapshot section "${name}" is not valid JSON`);
      }
    },
  };
}

function align4(offset: number): number {
  return Math.ceil(offset / 4) * 4;
}
