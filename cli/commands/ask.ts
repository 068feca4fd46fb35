import { stat } from 'node:fs/promises';
import type { Command } from 'commander';
import { answerSettings } from '../../knowledge/server/config.js';
import { askConfig } from '../config.js';
import { dataDirOf, namespaceOption } from './options.js';

interface AskCommandFlags {
  namespace?: string;
  json?: boolean;
}

export function registerAskCommand(program: Command): void {
  const summary = 'ask the knowledge agent a question and print the answer with its sources';
  namespaceOption(
    program
      .command('ask')
      .summary(summary)
      .description(
        `${summary}.\nThe same answer as POST /api/agents/knowledge/generate, without a mention: ` +
          'extractive offline, or from the language model set by LLM_BASE_URL and LLM_MODEL.',
      )
      .argument('<question>', 'what to ask'),
  )
    .option('--json', 'print the generate response as JSON')
    .action(async (question: string, flags: AskCommandFlags, command: Command) => {
      const dataDir = dataDirOf(command);
      const options = askConfig(flags, process.env, dataDir);
      // Loaded when the command runs, so `parley --help` and other commands start without the engine.
      const [{ answerChat }, { KnowledgeEngine }, { generateResponse }] = await Promise.all([
        import('../../knowledge/agent/index.js'),
        import('../../knowledge/index.js'),
        import('../../knowledge/server/generate-response.js'),
      ]);
      const engine = await KnowledgeEngine.open({ dataDir });
      try {
        const folder = engine.namespaceFolder(options.namespace);
        if (
          !(await stat(folder).then(
            () => true,
            () => false,
          ))
        ) {
          throw new Error(`namespace "${options.namespace}" does not exist (parley namespaces lists them)`);
        }
        const answer = await answerChat(
          {
            messages: [{ role: 'user', content: question }],
            toolParams: { namespace: options.namespace },
            requireMention: false,
          },
          engine,
          answerSettings(options.agent),
        );
        process.stdout.write(
          flags.json ? `${JSON.stringify(generateResponse(answer), null, 2)}\n` : `${answer.text}\n`,
        );
      } finally {
        await engine.close();
      }
    });
}
