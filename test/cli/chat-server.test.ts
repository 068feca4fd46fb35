import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParley } from './support.js';
import { parleyCommand } from '../support/built.js';

/** `parley chat-server --tls` as a real process on a free loopback port, read back from what it prints. */
describe('parley chat-server --tls', () => {
  let dataDir: string;
  let child: ChildProcessWithoutNullStreams;
  let output = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'parley-chat-server-'));
    child = spawn(
      process.execPath,
      [...(await parleyCommand()), '--data-dir', dataDir, 'chat-server', '--tls', '--port', '0'],
      { env: { ...process.env, NODE_NO_WARNINGS: '1', NO_COLOR: '1' } },
    );
    child.stderr.resume();
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/^TLS: /m.test(output)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`parley chat-server exited with ${code}: ${output}`)));
    });
  });

  afterAll(async () => {
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves https on loopback with the self-signed certificate it made in the data dir, and says how to trust it', async () => {
    const secureUrl = /^Chat service listening on http:\/\/\S+ and (https:\/\/127\.0\.0\.1:\d+) /m.exec(
      output,
    )?.[1];
    expect(secureUrl).toBeDefined();
    const certPath = join(dataDir, 'tls', 'localhost-cert.pem');
    expect(output).toContain(`NODE_EXTRA_CA_CERTS=${certPath}`);
    const trusting = new Agent({ connect: { ca: readFileSync(certPath, 'utf8') } });
    try {
      const response = await undiciFetch(`${secureUrl}/healthz`, { dispatcher: trusting });
      expect(await response.json()).toEqual({ status: 'ok' });
    } finally {
      await trusting.close();
    }
  });
});

describe('parley chat-server with a certificate of its own', () => {
  it('refuses --tls-cert without --tls-key, saying they go together', async () => {
    const run = await runParley(['chat-server', '--tls-cert', 'cert.pem']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--tls-cert and --tls-key go together.');
  });

  it('refuses a certificate file it cannot read, naming the option and the file', async () => {
    const run = await runParley([
      'chat-server',
      '--tls-cert',
      '/no/such/cert.pem',
      '--tls-key',
      '/no/such/key.pem',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--tls-cert: cannot read /no/such/cert.pem (ENOENT).');
  });
});
