import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Vitest's default on a 2-core machine is one worker, so every file waits for the last; most
    // files spend their time waiting on a browser, a child process or PostgreSQL, so three run side
    // by side: 866 s on a clean clone against 902 s with two. Beyond that the two cores are the
    // limit (the files' module loading alone summed to 669 s of that run). Since the product loads
    // S3, Redis, mail, image and HTML code only when used and PostgreSQL stores are copies of one
    // migrated template, a run on this machine (other sessions loading it) took 421 s of CPU, 394 s,
    // module loading 286 s, against 568 s of CPU, 528 s and 419 s for main at 960d852 right after
    // (in a checkout without ../shared, where 5 of its files failed at once: an underestimate).
    maxWorkers: 3,
    // Generous: the files that spawn processes, browsers and databases must pass on a busy machine.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Builds what several files would each build again (the package's Node code that spawned
    // `parley` processes run, the desktop window, a migrated PostgreSQL database to copy), once
    // per run when a file first asks.
    globalSetup: ['./test/support/build-service.ts'],
  },
});
