import type { Command } from 'commander';

/**
 * Commands whose engines are not built yet. Each keeps its final name, arguments and options so
 * `--help` already documents the interface, and running it says plainly that it is not available,
 * naming the issue that delivers it. A command leaves this list when its issue lands.
 */
interface PendingCommand {
  name: string;
  summary: string;
  issue: number;
  define: (command: Command) => Command;
}

export const pendingCommands: PendingCommand[] = [];

export function registerPendingCommands(program: Command): void {
  for (const pending of pendingCommands) {
    const command = pending.define(
      program.command(pending.name).summary(pending.summary).description(pending.summary),
    );
    command.action(() => {
      console.error(
        `parley ${pending.name}: this command is not available yet; it is built in issue #${pending.issue}.`,
      );
      process.exitCode = 2;
    });
  }
}
