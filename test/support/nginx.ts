import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localhostCertificate } from '../../server/tls/certificate.js';
import { freePort, untilListening } from './ports.js';

/** Debian's nginx; `.ci/run` installs it when it is missing. */
export const NGINX = process.env.PARLEY_TEST_NGINX ?? '/usr/sbin/nginx';

export interface Balancer {
  /** `https://localhost:<port>`: TLS ends at nginx, as in the documented configuration. */
  url: string;
  port: number;
  /** The certificate nginx presents (for `localhost`), for clients to trust. */
  certPath: string;
  stop(): Promise<void>;
}

/**
 * nginx as this test's own child (no daemon, no root install touched): the configuration of
 * server/README.md's "Running several processes" — round robin, no sticky sessions, WebSocket
 * upgrades passed on — listening with TLS on an ephemeral loopback port in front of `upstreams`
 * (`host:port` of plain-http chat-server processes).
 */
export async function startBalancer(upstreams: readonly string[]): Promise<Balancer> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-nginx-'));
  // nginx's workers drop to an unprivileged user when it runs as root: let them reach their temp dirs.
  chmodSync(dir, 0o755);
  const certificate = await localhostCertificate(dir);
  const port = await freePort();
  const config = `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 8192; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream parley_chat {
${upstreams.map((upstream) => `    server ${upstream} max_fails=1 fail_timeout=5s;`).join('\n')}
  }
  map $http_upgrade $connection_upgrade {
    default upgrade;
    ''      close;
  }
  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate     ${join(dir, 'tls', 'localhost-cert.pem')};
    ssl_certificate_key ${join(dir, 'tls', 'localhost-key.pem')};
    client_max_body_size 1m;
    location / {
      proxy_pass http://parley_chat;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_read_timeout 75s;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
`;
  const configPath = join(dir, 'nginx.conf');
  writeFileSync(configPath, config);
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', dir, '-c', configPath, '-e', 'stderr', '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Up once its port takes connections; an nginx that exits first says why.
  await untilListening(port, () =>
    child.exitCode === null ? undefined : `nginx exited with ${child.exitCode}: ${stderr}`,
  );
  return {
    url: `https://localhost:${port}`,
    port,
    certPath: certificate.certPath,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
