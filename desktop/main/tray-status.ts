/** What the agent is doing, as the tray shows it. */
export type AgentStatus =
  | { state: 'starting' }
  | { state: 'running'; url: string; indexing: number }
  | { state: 'error'; message: string }
  | { state: 'stopped' };

export function trayStatusText(status: AgentStatus): string {
  switch (status.state) {
    case 'starting':
      return 'Starting the knowledge agent…';
    case 'running':
      return status.indexing > 0
        ? `Indexing ${status.indexing} ${status.indexing === 1 ? 'file' : 'files'}…`
        : `Running on ${new URL(status.url).host}`;
    case 'error':
      return `Error: ${status.message}`;
    case 'stopped':
      return 'Stopped';
  }
}
