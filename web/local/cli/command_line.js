// The command line of `loyalty-qualifier`: one parser (node:util parseArgs) for every
// subcommand, the exit codes, and reading input files. A usage error is plain text, never JSON.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

/** Exit codes of every subcommand (README "CLI"). */
export const EXIT = Object.freeze({
  /** Done; the answer is on stdout. */
  OK: 0,
  /** The engine or the service refused: its {code, message} body is on stderr. */
  REFUSED: 1,
  /** A bad command line, or an input file that cannot be read. */
  USAGE: 2,
  /** sandbox wait: the purchase has not landed within the schedule. */
  NOT_LANDED: 3,
  /** sandbox: the service could not be reached (for wait: on any poll). */
  UNREACHABLE: 4,
  /** sandbox doctor: some of the user's rewards would silently fail (the sandbox fraud rule). */
  SILENT_FAILURES: 5,
});

/** A bad command line or an unreadable input file: exit 2 with this message on stderr. */
export class UsageError extends Error {
  /** `showUsage`: whether the usage text follows the message. */
  constructor(message, { showUsage = true } = {}) {
    super(message);
    this.name = 'UsageError';
    this.showUsage = showUsage;
  }
}

/** Writes a UsageError as plain text, "PREFIX: message", then the usage when it helps. */
export function reportUsageError(stream, prefix, error, usage) {
  stream.write(`${prefix}: ${error.message}${error.showUsage ? `\n\n${usage}` : ''}\n`);
  return EXIT.USAGE;
}

/**
 * Parses `argv` against `options` (parseArgs' format: { name: { type, short, multiple } }).
 * Returns { values, positionals }; a UsageError names the first problem. parseArgs tokenises;
 * the checks are ours, so that every message reads the same ("unknown option "--x"").
 */
export function parseCommandLine(argv, options) {
  let tokens;
  try {
    ({ tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true }));
  } catch (e) {
    throw new UsageError(e.message);
  }
  const values = {};
  const positionals = [];
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind === 'option-terminator') continue;
    const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (spec === undefined) throw new UsageError(`unknown option "${token.rawName}"`);
    const name = `--${token.name}`;
    let value;
    if (spec.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`option ${name} takes no value`);
      value = true;
    } else {
      if (token.value === undefined) throw new UsageError(`option ${name} needs a value`);
      // "--snapshot --request x" forgot a value; "--snapshot=-x" means it.
      if (!token.inlineValue && token.value.startsWith('-') && token.value !== '-') {
        throw new UsageError(
          `option ${name} needs a value (got "${token.value}"; write ${name}=${token.value} if that is the value)`,
        );
      }
      value = token.value;
    }
    if (spec.multiple) {
      (values[token.name] ??= []).push(value);
    } else {
      if (values[token.name] !== undefined) throw new UsageError(`option ${name} is given twice`);
      values[token.name] = value;
    }
  }
  return { values, positionals };
}

/**
 * The bytes of FILE, or of standard input for "-", as they are (the engine judges every byte, as
 * the service judges a body's); an unreadable file is a UsageError naming it.
 */
export async function readInputFile(file, what, stdin = globalThis.process.stdin) {
  try {
    if (file !== '-') return await readFile(file);
    const chunks = [];
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return Buffer.concat(chunks);
  } catch (e) {
    const reason = e.code === 'ENOENT' ? 'no such file' : e.message;
    throw new UsageError(`cannot read the ${what} file "${file}": ${reason}`, { showUsage: false });
  }
}

/** The package version, for --version. */
export async function packageVersion() {
  const text = await readFile(new URL('../../../package.json', import.meta.url), 'utf8');
  return JSON.parse(text).version;
}
