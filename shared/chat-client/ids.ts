/** 32 hex digits from the platform's CSPRNG; unlike `randomUUID` it also works on plain-http pages. */
export function randomHex(bytes = 16): string {
  const buffer = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buffer);
  return Array.from(buffer, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The session id sent as the REST `resource` header and the socket `deviceId` (§2.1). */
export function newSessionId(): string {
  return `WEB-parley-${randomHex()}-${Date.now()}`;
}
