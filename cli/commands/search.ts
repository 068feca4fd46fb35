import { stat } from 'node:fs/promises';
import { InvalidArgumentError, type Command } from 'commander';
import type { SearchHit, SearchResponse } from '../../shared/agent.js';
import { displaySource } from './ingest-progress.js';
import { namespaceFrom } from '../config.js';
import { dataDirOf, namespaceOption } from './options.js';

interface SearchCommandOptions {
  namespace?: string;
  /** Flag only, checked by commander as it parses. */
  limit: number;
  json?: boolean;
}

const SNIPPET_CHARS = 320;

export function registerSearchCommand(program: Command): void {
  const summary = 'search a namespace and print ranked snippets with title, page and score';
  namespaceOption(
    program
      .command('search')
      .summary(summary)
      .description(`${summary}.`)
      .argument('<query>', 'what to look for'),
  )
    .option('--limit <n>', 'how many results (1-100)', parseLimit, 6)
    .option('--json', 'print JSON ({results, namespace, query}) instead of text')
    .action(async (query: string, options: SearchCommandOptions, command: Command) => {
      const namespace = namespaceFrom(options, process.env);
      const { KnowledgeEngine } = await import('../../knowledge/index.js');
      const engine = await KnowledgeEngine.open({ dataDir: dataDirOf(command) });
      try {
        const folder = engine.namespaceFolder(namespace);
        const exists = await stat(folder).then(
          () => true,
          () => false,
        );
        if (!exists)
          throw new Error(`namespace "${namespace}" does not exist (parley namespaces lists them)`);
        const results = await engine.search(namespace, query, {
          limit: options.limit,
          snippets: true,
        });
        if (options.json) {
          const response: SearchResponse = { results, namespace, query };
          process.stdout.write(`${JSON.stringify(response, null, 2)}\n`);
        } else {
          process.stdout.write(
            results.length > 0 ? results.map(formatHit).join('\n') : 'No matching passages.\n',
          );
        }
      } finally {
        await engine.close();
      }
    });
}

function parseLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new InvalidArgumentError('give a whole number from 1 to 100.');
  }
  return limit;
}

/** Rank, title, page and score; then where it is; then the passage, on one line, shortened. */
export function formatHit(hit: SearchHit, index: number): string {
  const { source } = hit;
  const page = source.page ? ` · page ${source.page}` : '';
  const where = [source.path ? displaySource(source.path) : source.url, source.heading]
    .filter(Boolean)
    .join(' › ');
  const passage = hit.text.replace(/\s+/g, ' ').trim();
  const snippet = passage.length > SNIPPET_CHARS ? `${passage.slice(0, SNIPPET_CHARS - 1)}…` : passage;
  return [
    `${index + 1}. ${source.title}${page} · score ${hit.score.toFixed(3)}`,
    where && `   ${where}`,
    `   ${snippet}`,
  ]
    .filter(Boolean)
    .join('\n')
    .concat('\n');
}
