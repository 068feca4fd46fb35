import { Option, type Command } from 'commander';
import { dataDirFrom, DEFAULT_NAMESPACE, described, SETTINGS } from '../config.js';
import { describedSetting, type Setting } from '../settings.js';

/** `-n, --namespace`: shared by every command that works on one knowledge namespace. */
export const namespaceOption = (command: Command): Command =>
  command.addOption(
    new Option(
      '-n, --namespace <namespace>',
      described('knowledge namespace', SETTINGS.namespace, DEFAULT_NAMESPACE),
    ),
  );

/** Registers the flag of every setting of a table that has one, with its help text. */
export function settingOptions(command: Command, table: Readonly<Record<string, Setting<unknown>>>): Command {
  for (const setting of Object.values(table)) {
    if (setting.flag !== undefined) command.addOption(new Option(setting.flag, describedSetting(setting)));
  }
  return command;
}

/** The global `--data-dir` (or PARLEY_DATA_DIR), as every command sees it. */
export function dataDirOf(command: Command): string {
  return dataDirFrom(command.optsWithGlobals<{ dataDir?: string }>(), process.env);
}

/** Resolves when the person stops the command (Ctrl+C) or a supervisor sends SIGTERM. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
