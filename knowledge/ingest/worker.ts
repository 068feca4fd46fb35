import { parentPort } from 'node:worker_threads';
import { parseSource } from './parse.js';
import type { WorkerReply, WorkerRequest } from './protocol.js';

/** Entry of a parser worker thread: one job at a time, page progress and the outcome posted back. */
const port = parentPort;
if (!port) throw new Error('knowledge/ingest/worker is a worker thread entry; start it through ParsePool');

port.on('message', ({ jobId, job }: WorkerRequest) => {
  const reply = (message: WorkerReply): void => port.postMessage(message);
  parseSource(job, (page, total) => reply({ jobId, type: 'page', page, total })).then(
    (outcome) => reply({ jobId, type: 'done', outcome }),
    (error: unknown) =>
      reply({ jobId, type: 'failed', error: error instanceof Error ? error.message : String(error) }),
  );
});
