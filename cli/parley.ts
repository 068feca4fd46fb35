#!/usr/bin/env node
import { CommanderError } from 'commander';
import { createProgram } from './program.js';

try {
  await createProgram().exitOverride().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  console.error(`parley: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
