import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Option, type Command } from 'commander';
import { DEFAULT_AGENT_PORT } from '../../knowledge/server/config.js';
import type { ChatConnection } from '../../shared/chat-connection.js';
import {
  DEFAULT_CHAT_HOST,
  DEFAULT_CHAT_PORT,
  described,
  SETTINGS,
  startConfig,
  type StartFlags,
} from '../config.js';
import { dataDirOf, untilStopped } from './options.js';
import { shownKey } from './shown-keys.js';
import { chatCertificate, chatTlsOptions, secureUrlOf } from './tls-options.js';

/** The package folder, where server/demo/docs lives whether this runs from the sources or from dist/. */
function packageRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'package.json')) && dirname(folder) !== folder) folder = dirname(folder);
  return folder;
}

export function registerStartCommand(program: Command): void {
  const summary = 'run the chat service (:4000) and the knowledge agent (:4111) with the demo app';
  chatTlsOptions(
    program
      .command('start')
      .summary(summary)
      .description(
        `${summary}.\n` +
          'Seeds the demo: its app and keys (printed in full only when created), users alice and bob, the group "Parley demo", the\n' +
          'knowledge agent registered and enabled, and the "demo" namespace; the demo page is at /demo.\n' +
          "The operator (admin of the group) is who the knowledge app's Chats signs in as; as CometChat's\n" +
          'SDK speaks only https/wss, the chat port also serves TLS with a self-signed localhost\n' +
          'certificate unless --no-tls is given (a browser on this computer reaches it over http instead).\n' +
          'The agent reads its usual environment (see `parley agent --help`).',
      ),
  )
    .addOption(
      new Option('--port <port>', described('chat service port', SETTINGS.chatPort, DEFAULT_CHAT_PORT)),
    )
    .addOption(
      new Option(
        '--agent-port <port>',
        described('knowledge agent port', SETTINGS.startAgentPort, DEFAULT_AGENT_PORT),
      ),
    )
    .addOption(
      new Option('--host <host>', described('address both bind', SETTINGS.chatHost, DEFAULT_CHAT_HOST)),
    )
    .addOption(new Option('--no-tls', 'serve the chat service over plain http only (Chats cannot connect)'))
    .action(async (flags: StartFlags, command: Command) => {
      const dataDir = dataDirOf(command);
      // TLS unless --no-tls: the knowledge app's Chats (CometChat's SDK) connects only over https/wss.
      const options = startConfig(flags, process.env, dataDir);
      const tls = chatCertificate(options);
      const root = packageRoot();
      // Loaded when the command runs, so `parley --help` starts without databases and engines.
      const { openAgentEngine, startAgentServer } = await import('../../knowledge/server/index.js');
      const { certificateFingerprint, startChatServer, trustHint } = await import('../../server/index.js');
      const { demoDocuments, demoPage, seedDemo, DEMO_NAMESPACE, DEMO_OPERATOR } =
        await import('../../server/demo/index.js');
      const { DEMO_CONNECTION_URL } = await import('../../desktop/main/demo-connection.js');
      // Filled in once the demo is seeded, a moment after the servers listen.
      const seeded: { demo?: Awaited<ReturnType<typeof seedDemo>>; chats?: ChatConnection } = {};

      const config = options.agent;
      const engine = await openAgentEngine(dataDir, config);
      const agent = await startAgentServer({
        config,
        backend: engine,
        host: options.host,
        port: options.agentPort,
        appUi: { chatConnection: () => seeded.chats },
      });
      const chat = await startChatServer({
        port: options.port,
        host: options.host,
        dataDir,
        databaseUrl: options.databaseUrl,
        secretKey: options.secretKey,
        tls,
        publicHost: options.publicHost,
        pages: [demoPage(() => seeded.demo, join(root, 'dist', 'widget'))],
      }).catch(async (error: unknown) => {
        await agent.close();
        await engine.close();
        throw error;
      });
      const documents = await demoDocuments(join(root, 'server', 'demo', 'docs'));
      const ingested = await engine.ingest(
        DEMO_NAMESPACE,
        documents.map((document) => ({ kind: 'text' as const, ...document })),
      );
      const demo = await seedDemo(chat, `${agent.apiUrl}/agents/knowledge/generate`);
      seeded.demo = demo;
      const chatHost = tls === undefined ? undefined : `localhost:${chat.port}`;
      // Public like the certificate: the desktop app trusts exactly this one for the chat host.
      const fingerprint = chat.tls === undefined ? null : certificateFingerprint(chat.tls.cert);
      if (chatHost !== undefined) {
        seeded.chats = {
          appId: demo.appId,
          region: demo.region,
          operatorUid: DEMO_OPERATOR.uid,
          host: chatHost,
          certificateFingerprint: fingerprint,
          authKey: demo.authKey,
        };
      }
      const windowUrl = agent.apiUrl.replace(/\/api$/, '/');

      const { app, apiKey, authKey, generated } = chat.seeded;
      const secureUrl = secureUrlOf(chat);
      process.stdout.write(
        [
          `Chat service: ${chat.url}${secureUrl === undefined ? '' : ` and ${secureUrl}`} (REST API under /v3, WebSocket at /)`,
          `  demo page ${chat.url}/demo, dashboard ${chat.url}/dashboard`,
          `Knowledge agent: ${agent.apiUrl} (Swagger UI ${agent.apiUrl.replace(/\/api$/, '')}/swagger-ui)`,
          `App ${app.appId} (region ${app.region})`,
          `  REST API key (fullAccess): ${shownKey(apiKey, generated.apiKey)}`,
          `  auth key (authOnly, for pages and the widget): ${shownKey(authKey, generated.authKey)}`,
          `Users ${demo.users.map((user) => user.uid).join(', ')} in group "${demo.group.name}" with agent @${demo.agent.uid}`,
          `Namespace ${DEMO_NAMESPACE}: ${ingested.filter((result) => result.status !== 'failed').length} of ${documents.length} documents`,
          chatHost === undefined
            ? `Chats: off (--no-tls); the knowledge app at ${windowUrl} needs the chat service over TLS`
            : `Chats: the knowledge app at ${windowUrl}#/chats signs in as ${DEMO_OPERATOR.uid} (admin of "${demo.group.name}") at ${chatHost} (a browser on this computer over http, no certificate step; the desktop app over https)`,
          ...(fingerprint === null
            ? []
            : [
                `${windowUrl}chat-connection.json` === DEMO_CONNECTION_URL
                  ? `  certificate ${fingerprint}: the desktop app's Chats reads it with the demo's connection and trusts it`
                  : `  certificate ${fingerprint}: the desktop app's Chats trusts it once it is in Settings → Chats (it reads the demo's connection only from ${DEMO_CONNECTION_URL})`,
              ]),
          ...(chat.tls?.certPath === undefined ? [] : [trustHint(chat.tls.certPath)]),
          '',
        ].join('\n'),
      );
      await untilStopped();
      await chat.close();
      await agent.close();
      await engine.close();
    });
}
