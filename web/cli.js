#!/usr/bin/env node
// Command-line face of the package:
//   loyalty-qualifier qualify|explain --snapshot FILE --request FILE [--now ISO]
// Prints the answer as JSON on stdout; any error as the contract body {"code","message"} on stderr.
import { readFile } from 'node:fs/promises';
import process from 'node:process';

import { createQualifier } from './qualifier.js';
import { QualifyError } from './qualify_error.js';

const USAGE = `usage: loyalty-qualifier <qualify|explain> --snapshot FILE --request FILE [--now ISO]
       loyalty-qualifier sandbox <grant|purchase|purchases|wait|rewards> ... (see: sandbox --help)

  qualify   print the qualifying rewards and points products (API spec 2.2)
  explain   print every offer with its discount and failing rules (contract section 4)
  --snapshot FILE  account snapshot JSON (contract section 1); - reads standard input
  --request FILE   basket request JSON (API spec 2.1); - reads standard input
  --now ISO        clock for a request without order_timestamp (RFC 3339; default: now)`;

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const EXIT_ERROR = 1;
const EXIT_USAGE = 2;

class UsageError extends Error {}

function parseArguments(argv) {
  const options = { command: null, snapshot: null, request: null, now: null, help: false };
  for (let i = 0; i < argv.length; ++i) {
    const argument = argv[i];
    if (argument === '-h' || argument === '--help') {
      options.help = true;
      continue;
    }
    if (!argument.startsWith('--')) {
      if (options.command !== null) throw new UsageError(`unexpected argument "${argument}"`);
      if (argument !== 'qualify' && argument !== 'explain') {
        throw new UsageError(`unknown command "${argument}" (expected qualify or explain)`);
      }
      options.command = argument;
      continue;
    }
    const equals = argument.indexOf('=');
    const name = equals < 0 ? argument.slice(2) : argument.slice(2, equals);
    if (!['snapshot', 'request', 'now'].includes(name)) {
      throw new UsageError(`unknown option "--${name}"`);
    }
    let value;
    if (equals >= 0) {
      value = argument.slice(equals + 1);
    } else {
      if (i + 1 >= argv.length) throw new UsageError(`option --${name} needs a value`);
      value = argv[++i];
    }
    if (options[name] !== null) throw new UsageError(`option --${name} is given twice`);
    options[name] = value;
  }
  if (options.help) return options;
  if (options.command === null) throw new UsageError('missing command (qualify or explain)');
  if (options.snapshot === null) throw new UsageError('missing --snapshot FILE');
  if (options.request === null) throw new UsageError('missing --request FILE');
  if (options.snapshot === '-' && options.request === '-') {
    throw new UsageError('only one of --snapshot and --request can read standard input');
  }
  if (
    options.now !== null &&
    (!RFC3339.test(options.now) || Number.isNaN(Date.parse(options.now)))
  ) {
    throw new UsageError(
      `--now must be an RFC 3339 instant, e.g. 2026-03-02T09:00:00Z (got "${options.now}")`,
    );
  }
  return options;
}

async function readInput(file) {
  if (file !== '-') return readFile(file, 'utf8');
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function readOrFail(file, what, code) {
  try {
    return await readInput(file);
  } catch (e) {
    throw new QualifyError(code, `cannot read ${what} file "${file}": ${e.message}`);
  }
}

function printError(code, message) {
  process.stderr.write(`${JSON.stringify({ code, message })}\n`);
}

async function main(argv) {
  if (argv[0] === 'sandbox') {
    const { runSandboxCli } = await import('./sandbox_cli.js');
    return runSandboxCli(argv.slice(1));
  }
  let options;
  try {
    options = parseArguments(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    printError(400, `${e.message}\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const fixedNow = options.now === null ? null : Date.parse(options.now);
  let qualifier = null;
  try {
    const snapshot = await readOrFail(options.snapshot, 'snapshot', 422);
    const request = await readOrFail(options.request, 'request', 400);
    qualifier = await createQualifier(snapshot, fixedNow === null ? {} : { now: () => fixedNow });
    const answer =
      options.command === 'qualify' ? qualifier.qualify(request) : qualifier.explain(request);
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof QualifyError)) throw e;
    printError(e.code, e.message);
    return EXIT_ERROR;
  } finally {
    if (qualifier !== null) qualifier.dispose();
  }
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (e) => {
    printError(500, e instanceof Error ? e.message : String(e));
    process.exitCode = EXIT_ERROR;
  },
);
