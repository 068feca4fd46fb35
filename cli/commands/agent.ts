import { isIP } from 'node:net';
import { Option, type Command } from 'commander';
import { DEFAULT_AGENT_HOST, DEFAULT_AGENT_PORT } from '../../knowledge/server/config.js';
import { agentCommandConfig, described, SETTINGS, type AgentFlags } from '../config.js';
import { dataDirOf, untilStopped } from './options.js';
import { keyFingerprint } from './shown-keys.js';

const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));

export function registerAgentCommand(program: Command): void {
  const summary = 'run the knowledge agent server (Mastra-compatible API under /api)';
  program
    .command('agent')
    .summary(summary)
    .description(
      `${summary}.\n` +
        'Environment: AGENT_API_KEY, CORS_ORIGINS, AGENT_ALLOWED_HOSTS, INGEST_ROOTS, INGEST_MAX_BYTES, AGENT_RATE_LIMIT, ' +
        'AGENT_MENTION_NAMES, AGENT_ALLOW_PRIVATE_NETWORK=1, LLM_BASE_URL, LLM_MODEL, LLM_PROVIDER_API_KEY, LLM_TIMEOUT_MS.',
    )
    .addOption(
      new Option('--port <port>', described('port to listen on', SETTINGS.agentPort, DEFAULT_AGENT_PORT)),
    )
    .addOption(
      new Option('--host <host>', described('address to bind', SETTINGS.agentHost, DEFAULT_AGENT_HOST)),
    )
    .addOption(
      new Option(
        '--allowed-host <name>',
        'a host name to serve besides localhost and IP addresses (repeatable; adds to AGENT_ALLOWED_HOSTS)',
      ).argParser((name: string, names: string[] = []) => [...names, name]),
    )
    .action(async (flags: AgentFlags, command: Command) => {
      const dataDir = dataDirOf(command);
      const options = agentCommandConfig(flags, process.env, dataDir);
      const config = options.agent;
      // Loaded when the command runs, so `parley --help` and other commands start without the engine.
      const { openAgentEngine, startAgentServer } = await import('../../knowledge/server/index.js');
      const engine = await openAgentEngine(dataDir, config, {
        allowPrivateNetwork: options.allowPrivateNetwork,
      });
      const server = await startAgentServer({
        config,
        backend: engine,
        host: options.host,
        port: options.port,
      }).catch(async (error: unknown) => {
        await engine.close();
        throw error;
      });
      const origin = server.apiUrl.replace(/\/api$/, '');
      process.stdout.write(
        `Knowledge agent listening on ${server.apiUrl} (Swagger UI: ${origin}/swagger-ui)\n` +
          `Generate endpoint: ${server.apiUrl}/agents/knowledge/generate\n` +
          `Answers: ${config.languageModel ? `language model ${config.languageModel.model}` : 'extractive (offline)'}; ` +
          `API key: ${config.apiKey ? `required, ${keyFingerprint(config.apiKey)}` : 'not required'}; ` +
          `local paths under: ${config.ingestRoots.length > 0 ? config.ingestRoots.join(', ') : 'none (set INGEST_ROOTS)'}\n`,
      );
      if (!isLoopback(options.host) && !config.apiKey) {
        process.stderr.write(
          'Warning: listening beyond this machine without AGENT_API_KEY: anyone who reaches it can use it.\n',
        );
      }
      await untilStopped();
      await server.close();
      await engine.close();
    });
}
