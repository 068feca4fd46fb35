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
