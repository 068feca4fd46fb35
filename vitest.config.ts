import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Vitest's default on a 2-core machine is one worker, so every file waits for the last; most
    // files spend their time waiting on a browser, a child process or PostgreSQL, so three run side
    // by side: 866 s on a clean clone against 902 s with two. Beyond that the two cores are the
    // limit (the files' module loading alone summed to 669 s of that run).
    maxWorkers: 3,
    // Generous: the files that spawn processes, browsers and databases must pass on a busy machine.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Builds what several files would each build again (the package's Node code that spawned
    // `parley` processes run, the desktop window), once per run when a file first asks.
    globalSetup: ['./test/support/build-service.ts'],
  },
});
