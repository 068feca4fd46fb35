import { createContext, useContext } from 'react';
import type { NamespaceSummary } from '../../shared/agent.js';
import type { AgentClient } from '../../shared/agent-client.js';
import type { AppInfo, DesktopBridge } from '../bridge.js';
import type { SourceTarget } from './lib/source-target.js';

/** What every view of the window shares. */
export interface WindowContext {
  client: AgentClient;
  /** The Electron bridge; absent when the window runs in a plain browser. */
  bridge: DesktopBridge | undefined;
  appInfo: AppInfo | undefined;
  namespaces: NamespaceSummary[] | undefined;
  refreshNamespaces(): Promise<void>;
  /** Opens a cited or found source at its place. */
  openSource(target: SourceTarget): void;
  /** Opens a web address in the browser, outside the window. */
  openExternal(url: string): void;
  /** Says something in the status area, read out by screen readers. */
  announce(message: string, tone?: 'info' | 'error'): void;
}

export const WindowContextValue = createContext<WindowContext | undefined>(undefined);

export function useWindow(): WindowContext {
  const value = useContext(WindowContextValue);
  if (!value) throw new Error('useWindow is used outside the window');
  return value;
}

/** A message for an error of any kind, in the words the agent or the browser gave. */
export function messageOf(error: unknown): string {
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) {
    return 'The knowledge agent cannot be reached. Is it still running?';
  }
  return error instanceof Error ? error.message : String(error);
}

/** What a failed bridge call says, without the IPC wrapping Electron puts around it. */
export function bridgeMessageOf(error: unknown): string {
  return messageOf(error).replace(/^Error invoking remote method '[^']+': (\w*Error: )?/, '');
}
