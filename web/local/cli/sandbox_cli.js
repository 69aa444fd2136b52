// `loyalty-qualifier sandbox grant|purchase|purchases|wait|rewards|register-card|doctor ...`: the
// consumer API's sandbox operations (and the local service's helpers for the emulated fraud
// rule) from a terminal, over SandboxClient. Answers are JSON on stdout; errors are
// the error body {"code","message"} on stderr; while waiting, a live progress line on stderr.
// A bad command line is plain text on stderr (exit 2).
import { EXIT, UsageError, parseCommandLine, reportUsageError } from './command_line.js';
import { NETWORK_ERROR, TIMEOUT } from '../../http/loyalty_client.js';
import { QualifyError } from '../../engine/qualify_error.js';
import { SANDBOX_POLL_SCHEDULE, SandboxClient } from '../../http/sandbox_client.js';

export const SANDBOX_USAGE = `usage: loyalty-qualifier sandbox <command> [options]

commands (the consumer API's sandbox operations; docs/reference.md#sandbox-operations):
  grant      --campaign HASHID --user USER_ID
             issue a campaign's reward (HASHID: the hashid form of the program's external_uid)
  purchase   --merchant MERCHANT_ID --user USER_ID --amount DECIMAL
             [--location LOCATION_ID] [--purchased-at ISO8601] [--wait]
             simulate a purchase; --wait then waits for it to land
  purchases  [--location ID]... [--source sandbox|basket]... [--since ISO8601] [--before ISO8601] [--limit N]
             list the landed purchases, latest first
  wait       --user USER_ID [--amount DECIMAL] [--location LOCATION_ID] [--purchased-at ISO8601] [--since ISO8601]
             poll until a matching purchase lands: first poll after 60 s, waits doubling to
             5 minutes, giving up after 45 minutes: exit 3 when it has not landed,
             exit 4 when the service could not be reached on any poll
  rewards    [--state STATE]... [--campaign HASHID]... [--id REWARD_ID]...
             list the user's rewards; repeated options are sent as states[]=a&states[]=b

the local service's own helpers (the emulated sandbox fraud rule; not operations of the loyalty API):
  register-card  --number CARD_NUMBER [--replace] [--user USER_ID]
             register a card for the user; a standard test card (4111111111111111 ...) is
             high-risk: use the first 6 and last 4 digits of one, middle digits your own
  doctor     [--user USER_ID] [--json]
             before a test run: which of the user's campaign rewards (intro, birthday, winback,
             signup) would silently fail to activate because of a high-risk card, and the fix;
             exit 5 when some would

connection (options, else environment):
  --url URL          LOYALTY_SANDBOX_API_URL   the sandbox API URL, e.g. http://127.0.0.1:8080
  --token TOKEN      LOYALTY_ACCESS_TOKEN      Authorization: Bearer <TOKEN>
  --client-id ID     LOYALTY_CLIENT_ID         X-ClientId: <ID>
  --timeout-ms MS    per request (default 30000)
polling (wait, purchase --wait; seconds): --first-poll 60 --max-interval 300 --give-up-after 2700`;

const COMMANDS = {
  grant: { required: ['campaign', 'user'], optional: [] },
  purchase: { required: ['merchant', 'user', 'amount'], optional: ['location', 'purchased-at', 'wait'] },
  purchases: { required: [], optional: ['location', 'source', 'since', 'before', 'limit'] },
  wait: { required: ['user'], optional: ['amount', 'location', 'purchased-at', 'since'] },
  rewards: { required: [], optional: ['state', 'campaign', 'id'] },
  'register-card': { required: ['number'], optional: ['replace', 'user'] },
  doctor: { required: [], optional: ['user', 'json'] },
};
const CONNECTION = ['url', 'token', 'client-id', 'timeout-ms'];
const POLLING = ['first-poll', 'max-interval', 'give-up-after'];
const REPEATABLE = new Set(['location', 'source', 'state', 'campaign', 'id']);
const FLAGS = new Set(['wait', 'replace', 'json']);
const USAGE_PREFIX = 'loyalty-qualifier sandbox';
const ENVIRONMENT = { url: 'LOYALTY_SANDBOX_API_URL', token: 'LOYALTY_ACCESS_TOKEN', 'client-id': 'LOYALTY_CLIENT_ID' };

function parseArguments(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help') return { help: true };
  const spec = COMMANDS[command];
  if (spec === undefined || !Object.hasOwn(COMMANDS, command)) {
    throw new UsageError(`unknown sandbox command "${command}"`);
  }
  const names = [...spec.required, ...spec.optional, ...CONNECTION];
  if (command === 'wait' || command === 'purchase') names.push(...POLLING);
  const options = { help: { type: 'boolean', short: 'h' } };
  for (const name of names) {
    options[name] = { type: FLAGS.has(name) ? 'boolean' : 'string', multiple: REPEATABLE.has(name) };
  }
  let parsed;
  try {
    parsed = parseCommandLine(rest, options);
  } catch (e) {
    if (e instanceof UsageError && e.message.startsWith('unknown option')) {
      throw new UsageError(`${e.message} for sandbox ${command}`);
    }
    throw e;
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  for (const name of spec.required) {
    if (values[name] === undefined) throw new UsageError(`sandbox ${command} needs --${name}`);
  }
  return { command, values };
}

function seconds(values, name, fallbackMs) {
  if (values[name] === undefined) return fallbackMs;
  const value = Number(values[name]);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`--${name} must be a positive number of seconds`);
  return value * 1000;
}

function single(values, name) {
  const list = values[name];
  if (list === undefined) return undefined;
  if (list.length > 1) throw new UsageError(`option --${name} is given twice`);
  return list[0];
}

function clientOf(values, env, fetch) {
  const connection = {};
  for (const [name, variable] of Object.entries(ENVIRONMENT)) {
    const value = values[name] ?? env[variable];
    if (value === undefined || value === '') throw new UsageError(`missing --${name} (or ${variable})`);
    connection[name] = value;
  }
  let timeoutMs = 30_000;
  if (values['timeout-ms'] !== undefined) {
    timeoutMs = Number(values['timeout-ms']);
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new UsageError('--timeout-ms must be a positive number');
  }
  try {
    return new SandboxClient({
      sandboxApiUrl: connection.url,
      accessToken: connection.token,
      clientId: connection['client-id'],
      timeoutMs,
      ...(fetch ? { fetch } : {}),
    });
  } catch (e) {
    throw new UsageError(e.message);
  }
}

function clockText(ms) {
  const total = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** Renders waitForPurchase() progress: one live line on a terminal, one line per step otherwise. */
export function progressRenderer({ stream, isTTY, timers, now = () => Date.now() }) {
  let ticker = null;
  let lastWaiting = null;
  let live = false;
  const write = (text) => {
    if (isTTY) {
      stream.write(`\r\x1b[K${text}`);
      live = true;
    } else {
      stream.write(`${text}\n`);
    }
  };
  const countdown = () => {
    if (lastWaiting === null) return;
    const left = lastWaiting.nextPollAt - now();
    const elapsed = lastWaiting.elapsedMs + (lastWaiting.delayMs - Math.max(0, left));
    write(`waiting for the purchase: poll ${lastWaiting.attempt} in ${clockText(left)} ` +
      `(${clockText(elapsed)} of ${clockText(lastWaiting.totalMs)})`);
  };
  const stopTicker = () => {
    if (ticker !== null) timers.clearInterval(ticker);
    ticker = null;
  };
  return {
    onProgress(event) {
      switch (event.type) {
        case 'waiting':
          lastWaiting = { ...event, nextPollAt: now() + event.delayMs };
          if (isTTY) {
            countdown();
            stopTicker();
            ticker = timers.setInterval(countdown, 1000);
          } else {
            write(`waiting ${clockText(event.delayMs)} before poll ${event.attempt} ` +
              `(${clockText(event.elapsedMs)} of ${clockText(event.totalMs)} elapsed)`);
          }
          break;
        case 'polling':
          stopTicker();
          write(`poll ${event.attempt}: asking GET /purchases ...`);
          break;
        case 'not-found':
          write(`poll ${event.attempt}: not landed yet (${event.seen} purchases seen)`);
          break;
        case 'poll-failed':
          write(`poll ${event.attempt} failed (${event.error.message}); trying again at the next step`);
          break;
        case 'found':
          write(`poll ${event.attempt}: landed after ${clockText(event.elapsedMs)}`);
          break;
        case 'gave-up':
          if (event.answered === 0 && event.attempt > 0) {
            write(`the service could not be reached on any of the ${event.attempt} polls ` +
              `in ${clockText(event.elapsedMs)}`);
          } else {
            write(`no matching purchase after ${clockText(event.elapsedMs)} (${event.attempt} polls); ` +
              'sandbox processing commonly takes 30 minutes or more');
          }
          break;
        default:
          break;
      }
    },
    finish() {
      stopTicker();
      if (live) stream.write('\n');
      live = false;
    },
  };
}

async function waitFor(client, match, values, io) {
  const schedule = {
    firstDelayMs: seconds(values, 'first-poll', SANDBOX_POLL_SCHEDULE.firstDelayMs),
    maxDelayMs: seconds(values, 'max-interval', SANDBOX_POLL_SCHEDULE.maxDelayMs),
    totalMs: seconds(values, 'give-up-after', SANDBOX_POLL_SCHEDULE.totalMs),
  };
  const timers = io.timers ?? {};
  const renderer = progressRenderer({
    stream: io.stderr,
    isTTY: io.isTTY ?? Boolean(io.stderr.isTTY),
    timers: {
      setInterval: timers.setInterval ?? ((fn, ms) => globalThis.setInterval(fn, ms)),
      clearInterval: timers.clearInterval ?? ((handle) => globalThis.clearInterval(handle)),
    },
    now: timers.now ?? (() => Date.now()),
  });
  const filters = values.since === undefined ? {} : { purchased_since: values.since };
  // Whether any poll got the purchase list: "not landed yet" (exit 3) is only known then.
  let answered = 0;
  let lastFailure = null;
  const onProgress = (event) => {
    if (event.type === 'not-found' || event.type === 'found') answered += 1;
    if (event.type === 'poll-failed') lastFailure = event.error;
    renderer.onProgress({ ...event, answered });
  };
  let landed;
  try {
    landed = await client.waitForPurchase(match, {
      onProgress,
      schedule,
      filters,
      signal: io.signal,
      ...(io.timers ? { timers: io.timers } : {}),
    });
  } finally {
    renderer.finish();
  }
  if (landed !== null) {
    io.stdout.write(`${JSON.stringify(landed, null, 2)}\n`);
    return EXIT.OK;
  }
  if (answered > 0 || lastFailure === null) return EXIT.NOT_LANDED;
  io.stderr.write(`${JSON.stringify({ code: lastFailure.code, message: lastFailure.message })}\n`);
  return EXIT.UNREACHABLE;
}

/** The doctor's report as text: cards, then each campaign's verdict, then the fix. */
export function renderFraudReport(report, { command = 'loyalty-qualifier sandbox' } = {}) {
  const lines = [`sandbox doctor: user ${report.user_id} (merchant ${report.merchant_id})`];
  lines.push('cards:');
  if (report.cards.length === 0) lines.push('  none registered');
  for (const card of report.cards) {
    const brand = card.brand === null ? '' : ` (${card.brand})`;
    lines.push(`  ${card.card}${brand}: ${card.high_risk ? `HIGH-RISK, ${card.reason}` : 'fine (unique)'}`);
  }
  lines.push('campaigns:');
  if (report.campaigns.length === 0) lines.push('  none');
  for (const campaign of report.campaigns) {
    const name = `${campaign.campaign_id} (program ${campaign.program_id}, ${campaign.reward_type}) ` +
      `${JSON.stringify(campaign.label)}`;
    let verdict;
    if (!campaign.activates) {
      verdict = `WOULD SILENTLY FAIL to activate (${campaign.issued_by.join(' or ')}): ${campaign.reason}`;
    } else if (campaign.fraud_protected) {
      verdict = 'activates (fraud-protected, no high-risk card)';
    } else {
      verdict = 'activates (not fraud-protected)';
    }
    lines.push(`  ${name}: ${verdict}`);
  }
  const failing = report.silent_failures;
  lines.push(failing === 0
    ? 'no reward would silently fail.'
    : `${failing} campaign reward${failing === 1 ? '' : 's'} would silently fail, with no error from the sandbox.`);
  if (report.fix !== null) {
    lines.push(`fix: ${report.fix.message}`);
    lines.push(`  ${command} register-card --user ${report.user_id} --number ${report.fix.card_number} --replace`);
  }
  lines.push(`rule: ${report.rule}`);
  return `${lines.join('\n')}\n`;
}

function matchOf(values, defaults = {}) {
  const match = { user_id: values.user };
  const amount = values.amount ?? defaults.amount;
  if (amount !== undefined) match.amount = amount;
  const location = single(values, 'location') ?? defaults.location;
  if (location !== undefined) match.location_id = location;
  const at = values['purchased-at'] ?? defaults.purchased_at;
  if (at !== undefined) match.purchased_at = at;
  return match;
}

async function run(command, values, io) {
  const client = clientOf(values, io.env, io.fetch);
  const print = (value) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  switch (command) {
    case 'grant':
      print(await client.grantReward({ campaign_id: single(values, 'campaign'), user_id: values.user }));
      return 0;
    case 'purchase': {
      const purchase = {
        merchant_id: values.merchant,
        location_id: single(values, 'location') ?? null,
        user_id: values.user,
        amount: values.amount,
        // Always sent, so that --wait (or a later wait) can tell this purchase apart.
        purchased_at: values['purchased-at'] ?? new Date(io.now?.() ?? Date.now()).toISOString(),
      };
      await client.simulatePurchase(purchase);
      if (!values.wait) {
        print({ accepted: true, purchase });
        return 0;
      }
      return waitFor(client, { user_id: purchase.user_id, amount: purchase.amount, purchased_at: purchase.purchased_at }, values, io);
    }
    case 'purchases':
      print(await client.listPurchases({
        location_ids: values.location,
        sources: values.source,
        purchased_since: values.since,
        purchased_before: values.before,
        limit: values.limit,
      }));
      return 0;
    case 'wait':
      return waitFor(client, matchOf(values), values, io);
    case 'rewards':
      print(await client.listRewards({ states: values.state, campaign_ids: values.campaign, ids: values.id }));
      return 0;
    case 'register-card':
      print(await client.registerCard({ card_number: values.number, replace: values.replace ?? false, user_id: values.user }));
      return 0;
    case 'doctor': {
      const report = await client.fraudReport({ user_id: values.user });
      if (values.json) print(report);
      else io.stdout.write(renderFraudReport(report, { command: USAGE_PREFIX }));
      return report.silent_failures > 0 ? EXIT.SILENT_FAILURES : EXIT.OK;
    }
    default:
      throw new UsageError(`unknown sandbox command "${command}"`);
  }
}

/**
 * Runs `loyalty-qualifier sandbox ...` (argv: the arguments after "sandbox") and resolves the
 * exit code (EXIT): 0 done, 1 refused, 2 bad command line, 3 the purchase has not landed in time,
 * 4 the service could not be reached (wait: on any poll), 5 doctor: some rewards would silently
 * fail.
 * io (tests): { stdout, stderr, env, fetch, timers, isTTY, signal, now }; defaults: the process's.
 */
export async function runSandboxCli(argv, io = {}) {
  const proc = globalThis.process;
  const streams = {
    stdout: io.stdout ?? proc.stdout,
    stderr: io.stderr ?? proc.stderr,
    env: io.env ?? proc?.env ?? {},
  };
  const context = { ...io, ...streams };
  const printError = (code, message) => streams.stderr.write(`${JSON.stringify({ code, message })}\n`);
  try {
    const parsed = parseArguments(argv);
    if (parsed.help) {
      streams.stdout.write(`${SANDBOX_USAGE}\n`);
      return EXIT.OK;
    }
    return await run(parsed.command, parsed.values, context);
  } catch (e) {
    if (e instanceof UsageError) return reportUsageError(streams.stderr, USAGE_PREFIX, e, SANDBOX_USAGE);
    if (e instanceof QualifyError) {
      printError(e.code, e.message);
      return e.code === NETWORK_ERROR || e.code === TIMEOUT ? EXIT.UNREACHABLE : EXIT.REFUSED;
    }
    if (e?.name === 'AbortError') {
      printError(499, 'aborted');
      return EXIT.REFUSED;
    }
    throw e;
  }
}
