import { keyIdOf } from '../../server/db/migrations-api-keys.js';

/**
 * A key as it may appear in a terminal or a log: its first 4 characters (for keys long enough
 * that they give little away) and the start of its SHA-256, enough to tell keys apart: for the chat
 * service's keys, the id `/v3/apikeys` lists them by.
 */
export function keyFingerprint(key: string): string {
  const digest = keyIdOf(key);
  return key.length >= 16 ? `${key.slice(0, 4)}… (sha256 ${digest})` : `(sha256 ${digest})`;
}

/** A key this run created is shown in full, this once; one that was given or stored, as its fingerprint. */
export function shownKey(key: string, createdNow: boolean): string {
  return createdNow ? `${key} (new: shown only now, keep it)` : keyFingerprint(key);
}
