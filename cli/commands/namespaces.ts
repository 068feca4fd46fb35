import { join } from 'node:path';
import type { Command } from 'commander';
import { dataDirOf } from './options.js';
import { renderTable } from './table.js';

export function registerNamespacesCommand(program: Command): void {
  const summary = 'list namespaces with document and chunk counts (namespaces delete NS removes one)';
  program
    .command('namespaces')
    .summary(summary)
    .description(
      `${summary}.\nDeleting removes the namespace folder with everything in it, Markdown placed there by hand too.`,
    )
    .argument('[action]', '"delete" to remove a namespace')
    .argument('[namespace]', 'the namespace to delete')
    .action(
      async (
        action: string | undefined,
        namespace: string | undefined,
        _options: object,
        command: Command,
      ) => {
        if (action !== undefined && action !== 'delete') {
          throw new Error(
            `unknown action "${action}": use "parley namespaces" or "parley namespaces delete <namespace>"`,
          );
        }
        if (action === 'delete' && namespace === undefined) throw new Error('name the namespace to delete');
        if (action === undefined && namespace !== undefined)
          throw new Error('to delete a namespace: parley namespaces delete <namespace>');
        const { KnowledgeEngine, parseNamespace } = await import('../../knowledge/index.js');
        const dataDir = dataDirOf(command);
        const engine = await KnowledgeEngine.open({ dataDir });
        try {
          if (action === 'delete' && namespace !== undefined) {
            const name = parseNamespace(namespace);
            if (!(await engine.deleteNamespace(name))) throw new Error(`namespace "${name}" does not exist`);
            process.stdout.write(`Deleted namespace "${name}".\n`);
            return;
          }
          const namespaces = await engine.namespaces();
          if (namespaces.length === 0) {
            process.stdout.write(`No namespaces yet in ${join(dataDir, 'knowledge')}.\n`);
            return;
          }
          const rows = namespaces.map((ns) => [ns.name, ns.documents, ns.chunks, ns.error ?? '']);
          process.stdout.write(
            renderTable(
              [
                { header: 'namespace' },
                { header: 'documents', align: 'right' },
                { header: 'chunks', align: 'right' },
                { header: namespaces.some((ns) => ns.error) ? 'problem' : '' },
              ],
              rows,
            ),
          );
        } finally {
          await engine.close();
        }
      },
    );
}
