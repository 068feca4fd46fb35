import { Option, type Command } from 'commander';

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

const namespaceOption = (command: Command): Command =>
  command.addOption(
    new Option('-n, --namespace <namespace>', 'knowledge namespace')
      .env('PARLEY_NAMESPACE')
      .default('default'),
  );

export const pendingCommands: PendingCommand[] = [
  {
    name: 'start',
    summary: 'run the chat service (:4000) and the knowledge agent (:4111) with the demo app',
    issue: 6,
    define: (c) => c,
  },
  {
    name: 'ingest',
    summary: 'ingest files, folders, URLs or standard input (-) into a namespace',
    issue: 3,
    define: (c) =>
      namespaceOption(c.argument('<sources...>', 'paths, http(s) URLs, or - for standard input')).option(
        '--watch',
        'keep watching the given folders and re-index on change',
      ),
  },
  {
    name: 'search',
    summary: 'search a namespace and print ranked snippets with title, page and score',
    issue: 3,
    define: (c) =>
      namespaceOption(c.argument('<query>', 'what to look for'))
        .option('--limit <n>', 'how many results', '6')
        .option('--json', 'print JSON instead of a table'),
  },
  {
    name: 'namespaces',
    summary: 'list namespaces with document and chunk counts (namespaces delete NS removes one)',
    issue: 3,
    define: (c) => c.argument('[action]', '"delete" to remove a namespace').argument('[namespace]'),
  },
];

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
