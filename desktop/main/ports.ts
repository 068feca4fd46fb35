/** How the agent got its port: the one asked for, or another because that one was taken. */
export interface Listening<T> {
  server: T;
  fellBack: boolean;
}

const TAKEN = new Set(['EADDRINUSE', 'EACCES']);

/**
 * Starts on the preferred port; if it is taken (or not allowed), starts again on a free port the
 * system picks, so a second app or an old agent on 4111 does not keep the app from starting.
 */
export async function listenWithFallback<T>(
  start: (port: number) => Promise<T>,
  preferredPort: number,
): Promise<Listening<T>> {
  try {
    return { server: await start(preferredPort), fellBack: false };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (preferredPort === 0 || !code || !TAKEN.has(code)) throw error;
    return { server: await start(0), fellBack: true };
  }
}

/** Says which port is used when it is not the one asked for. */
export function portNote(preferredPort: number, usedPort: number): string | undefined {
  return usedPort === preferredPort
    ? undefined
    : `Port ${preferredPort} was taken, so the agent listens on ${usedPort} instead.`;
}
