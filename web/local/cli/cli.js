#!/usr/bin/env node
// Command-line face of the package: `loyalty-qualifier <command> ...`. This file only dispatches;
// each command lives in its own module and resolves its exit code (web/local/cli/command_line.js: EXIT).
import process from 'node:process';

import { EXIT, UsageError, packageVersion, reportUsageError } from './command_line.js';

/**
 * The commands: name -> { summary, run(argv, io) } resolving the exit code. A new command is one
 * entry here plus its module, e.g.
 *   serve: { summary: '...', run: async (argv, io) => (await import('./serve_cli.js')).runServeCli(argv, io) },
 */
const COMMANDS = {
  qualify: {
    summary: 'the qualifying rewards and points products of a basket',
    run: async (argv, io) => (await import('./qualify_cli.js')).runQualifyCli('qualify', argv, io),
  },
  explain: {
    summary: 'every offer with its discount and failing rules',
    run: async (argv, io) => (await import('./qualify_cli.js')).runQualifyCli('explain', argv, io),
  },
  sandbox: {
    summary: 'the consumer API sandbox: grant, purchase, purchases, wait, rewards; register-card, doctor',
    run: async (argv, io) => (await import('./sandbox_cli.js')).runSandboxCli(argv, io),
  },
  serve: {
    summary: 'the local loyalty service (native, from the platform package or a local build)',
    run: async (argv) => (await import('./serve_cli.js')).runServeCli(argv),
  },
  hub: {
    summary: 'the store hub: claims that hold an offer for one basket across a store\'s kiosks',
    run: async (argv) => (await import('./hub_cli.js')).runHubCli(argv),
  },
};

const USAGE = `usage: loyalty-qualifier <command> [options]
       loyalty-qualifier --version | --help

commands:
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(9)} ${summary}`)
  .join('\n')}

"loyalty-qualifier <command> --help" describes a command. Exit codes: 0 done, 1 refused (the
{"code","message"} body on stderr), 2 bad command line or unreadable file, 3 sandbox wait: not
landed yet, 4 sandbox: the service could not be reached, 5 sandbox doctor: some rewards would
silently fail.`;

function usageError(io, message) {
  return reportUsageError(io.stderr, 'loyalty-qualifier', new UsageError(message), USAGE);
}

async function main(argv, io) {
  const [first, ...rest] = argv;
  if (first === '--version') {
    io.stdout.write(`${await packageVersion()}\n`);
    return EXIT.OK;
  }
  if (first === '-h' || first === '--help') {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.OK;
  }
  if (first === undefined) return usageError(io, 'missing command');
  if (first.startsWith('-')) return usageError(io, `missing command before "${first}"`);
  if (!Object.hasOwn(COMMANDS, first)) {
    const known = Object.keys(COMMANDS).join(', ');
    return usageError(io, `unknown command "${first}" (expected one of: ${known})`);
  }
  return COMMANDS[first].run(rest, io);
}

const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
main(process.argv.slice(2), io).then(
  (status) => {
    process.exitCode = status;
  },
  (e) => {
    // A bug, not an answer: the error body with code 500.
    io.stderr.write(`${JSON.stringify({ code: 500, message: e instanceof Error ? e.message : String(e) })}\n`);
    process.exitCode = EXIT.REFUSED;
  },
);
