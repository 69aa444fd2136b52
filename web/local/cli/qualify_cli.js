// `loyalty-qualifier qualify|explain`: one snapshot and one request through the engine. The answer
// is JSON on stdout; a refusal is the error body {"code","message"} (docs/reference.md#errors) on stderr (exit 1).
import {
  EXIT,
  UsageError,
  parseCommandLine,
  readInputFile,
  reportUsageError,
} from './command_line.js';
import { createQualifier } from '../../engine/qualifier.js';
import { QualifyError } from '../../engine/qualify_error.js';

export const QUALIFY_USAGE = `usage: loyalty-qualifier qualify|explain -s FILE -r FILE [-n ISO]

  qualify              print the qualifying rewards and points products
  explain              print every offer with its discount and failing rules
  -s, --snapshot FILE  account snapshot JSON; - reads standard input
  -r, --request FILE   basket request JSON; - reads standard input
  -n, --now ISO        clock for a request without order_timestamp (RFC 3339; default: now)
  -h, --help           this text`;

const OPTIONS = {
  snapshot: { type: 'string', short: 's' },
  request: { type: 'string', short: 'r' },
  now: { type: 'string', short: 'n' },
  help: { type: 'boolean', short: 'h' },
};

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function parse(argv) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (values.help) return values;
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (values.snapshot === undefined) throw new UsageError('missing --snapshot FILE');
  if (values.request === undefined) throw new UsageError('missing --request FILE');
  if (values.snapshot === '-' && values.request === '-') {
    throw new UsageError('only one of --snapshot and --request can read standard input');
  }
  if (values.now !== undefined && (!RFC3339.test(values.now) || Number.isNaN(Date.parse(values.now)))) {
    throw new UsageError(
      `--now must be an RFC 3339 instant, e.g. 2026-03-02T09:00:00Z (got "${values.now}")`,
    );
  }
  return values;
}

/** Runs `qualify` or `explain` (argv: the arguments after it); resolves the exit code. */
export async function runQualifyCli(command, argv, io) {
  let qualifier = null;
  try {
    const options = parse(argv);
    if (options.help) {
      io.stdout.write(`${QUALIFY_USAGE}\n`);
      return EXIT.OK;
    }
    const snapshot = await readInputFile(options.snapshot, 'snapshot', io.stdin);
    const request = await readInputFile(options.request, 'request', io.stdin);
    const fixedNow = options.now === undefined ? null : Date.parse(options.now);
    qualifier = await createQualifier(snapshot, fixedNow === null ? {} : { now: () => fixedNow });
    const answer = command === 'qualify' ? qualifier.qualify(request) : qualifier.explain(request);
    io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return EXIT.OK;
  } catch (e) {
    if (e instanceof UsageError) {
      return reportUsageError(io.stderr, `loyalty-qualifier ${command}`, e, QUALIFY_USAGE);
    }
    if (!(e instanceof QualifyError)) throw e;
    io.stderr.write(`${JSON.stringify(e.toJSON())}\n`);
    return EXIT.REFUSED;
  } finally {
    if (qualifier !== null) qualifier.dispose();
  }
}
