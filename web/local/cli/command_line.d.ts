// Types of loyalty-qualifier/command-line (Node only): the package's command-line parser, its
// usage error and exit codes, for a program that wraps the service in a command of its own (the
// kiosk server reads its options this way, as the `loyalty-qualifier` command does).

/** Exit codes of every subcommand of `loyalty-qualifier` (README "CLI"). */
export declare const EXIT: Readonly<{
  OK: 0;
  REFUSED: 1;
  USAGE: 2;
  NOT_LANDED: 3;
  UNREACHABLE: 4;
  SILENT_FAILURES: 5;
}>;

/** A bad command line or an unreadable input file: exit 2 with this message on stderr. */
export declare class UsageError extends Error {
  /** `showUsage`: whether the usage text follows the message (default true). */
  constructor(message: string, options?: { showUsage?: boolean });
  name: 'UsageError';
  readonly showUsage: boolean;
}

/** Writes a UsageError as plain text, "PREFIX: message", then the usage when it helps; returns EXIT.USAGE. */
export function reportUsageError(stream: { write(text: string): unknown }, prefix: string, error: UsageError, usage: string): 2;

/** An option of parseCommandLine, in node:util parseArgs' format. */
export interface CommandLineOption {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
}

/**
 * Parses `argv` against `options`; a UsageError names the first problem (an unknown option, a
 * missing value, an option given twice). Values are texts (`true` for a boolean, an array for a
 * multiple one).
 */
export function parseCommandLine(
  argv: readonly string[],
  options: Readonly<Record<string, CommandLineOption>>,
): { values: Record<string, string | true | string[] | true[] | undefined>; positionals: string[] };

/** The bytes of FILE, or of standard input for "-"; an unreadable file is a UsageError naming it. */
export function readInputFile(file: string, what: string, stdin?: AsyncIterable<Uint8Array | string>): Promise<Uint8Array>;

/** This package's version, from its package.json. */
export function packageVersion(): Promise<string>;
