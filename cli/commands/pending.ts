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

const chatAddress = (command: Command): Command =>
  command
    .addOption(new Option('--port <port>', 'port to listen on').env('PARLEY_CHAT_PORT').default('4000'))
    .addOption(new Option('--host <host>', 'address to bind').env('PARLEY_CHAT_HOST').default('127.0.0.1'));

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
    name: 'chat-server',
    summary: 'run the chat service (CometChat REST API v3)',
    issue: 5,
    define: (c) =>
      chatAddress(c)
        .addOption(new Option('--app-id <id>', 'create or update this app at start').env('PARLEY_APP_ID'))
        .addOption(new Option('--api-key <key>', 'its fullAccess REST API key').env('PARLEY_API_KEY'))
        .addOption(new Option('--auth-key <key>', 'its authOnly key for client login').env('PARLEY_AUTH_KEY'))
        .option('--tls', 'serve https/wss on the same port'),
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
