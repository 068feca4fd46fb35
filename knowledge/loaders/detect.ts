/**
 * What a CLI or API string names: an http(s) URL, an existing file or folder, or raw text.
 * Other URL schemes (file:, ftp:, data:, javascript:) are refused by name rather than read as
 * text, and a single word that looks like a path but does not exist is reported as missing:
 * ingesting the string "./notes.md" as the document's text would only hide a typo.
 */
import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import type { SourceInput } from '../types.js';
import { parseHttpUrl } from './download.js';
import { SourceError } from './errors.js';
import { isSupportedExtension } from './formats.js';

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const WINDOWS_DRIVE = /^[a-z]:[\\/]/i;

export function detectSource(raw: string): SourceInput {
  const value = raw.trim();
  if (value === '') throw new SourceError('the source is empty');
  const isOneWord = !/\s/.test(value);
  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase();
  if (isOneWord && scheme && !WINDOWS_DRIVE.test(value)) {
    if (scheme === 'http' || scheme === 'https') return { kind: 'url', url: parseHttpUrl(value).href };
    throw new SourceError(`unsupported URL scheme "${scheme}:": only http and https URLs can be loaded`);
  }
  if (existsSync(value)) return { kind: 'file', path: value };
  if (isOneWord && looksLikePath(value)) throw new SourceError(`file not found: ${value}`);
  return { kind: 'text', text: raw };
}

function looksLikePath(value: string): boolean {
  return (
    /^(\.{1,2}|~)?[\\/]/.test(value) ||
    WINDOWS_DRIVE.test(value) ||
    isSupportedExtension(extname(value).toLowerCase())
  );
}
