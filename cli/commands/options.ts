import { Option, type Command } from 'commander';

/** `-n, --namespace`: shared by every command that works on one knowledge namespace. */
export const namespaceOption = (command: Command): Command =>
  command.addOption(
    new Option('-n, --namespace <namespace>', 'knowledge namespace')
      .env('PARLEY_NAMESPACE')
      .default('default'),
  );

/** The global `--data-dir`, as every command sees it. */
export function dataDirOf(command: Command): string {
  return command.optsWithGlobals<{ dataDir: string }>().dataDir;
}

/** Resolves when the person stops the command (Ctrl+C) or a supervisor sends SIGTERM. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
