import { Command, Option } from 'commander';
import { DEFAULT_DATA_DIR, described, SETTINGS } from './config.js';
import { registerAgentCommand } from './commands/agent.js';
import { registerAskCommand } from './commands/ask.js';
import { registerChatServerCommand } from './commands/chat-server.js';
import { registerIngestCommand } from './commands/ingest.js';
import { registerNamespacesCommand } from './commands/namespaces.js';
import { registerSearchCommand } from './commands/search.js';
import { registerStartCommand } from './commands/start.js';

/** The `parley` command line: every command with its options and help text. */
export function createProgram(): Command {
  const program = new Command('parley')
    .description(
      'Parley: a self-hostable chat service and widget with a local knowledge agent.\n' +
        'Configuration: flags first, then environment variables, then defaults.',
    )
    .addOption(
      new Option(
        '--data-dir <dir>',
        described('where chats and knowledge are kept', SETTINGS.dataDir, DEFAULT_DATA_DIR),
      ),
    )
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: false });

  registerStartCommand(program);
  registerAgentCommand(program);
  registerAskCommand(program);
  registerChatServerCommand(program);
  registerIngestCommand(program);
  registerSearchCommand(program);
  registerNamespacesCommand(program);
  return program;
}
