// The local service's launch options, in one place: each launcher option (a key of
// startLocalService's options, a flag of `loyalty-qualifier serve` and of the kiosk server) with
// the loyalty_service flag it maps to, its check, and how a command line's text becomes its value.
// A command line's text becomes typed values here (serviceOptionsFromText), and every value is
// checked by the same rule (a TypeError naming the option before anything starts), so that the
// service's own usage errors never reach a user. Node and browsers alike: no imports.

const MODES = ['sandbox', 'production'];
// The RFC 3339 shape the service reads (docs/reference.md, "Conventions"); it checks the ranges.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An origin as a browser sends it in Origin (scheme and host in lower case, no default port, no
 * trailing slash): the rule the service and the hub apply to --cors-origin themselves, so that
 * the launcher refuses what the program would. `*` is refused outright: every request of
 * the service and the hub carries a secret, so each page's origin is named.
 */
function corsOrigin(text) {
  if (text === '*') {
    throw new TypeError('* is refused: every request carries a secret (an access token, a merchant key or a store key), so name each page\'s origin, e.g. http://localhost:5173');
  }
  const parts = typeof text === 'string'
    ? /^(https?):\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?\/?$/.exec(text.toLowerCase())
    : null;
  if (parts === null || (parts[3] !== undefined && Number(parts[3]) > 65535) || parts[2] === '[]') {
    throw new TypeError(`must be an origin such as http://localhost:5173: http or https, a host, an optional port, nothing after (got ${JSON.stringify(text)})`);
  }
  const [, scheme, host, port] = parts;
  const defaultPort = port !== undefined && Number(port) === (scheme === 'http' ? 80 : 443);
  return `${scheme}://${host}${port === undefined || defaultPort ? '' : `:${Number(port)}`}`;
}

/** A command line's number text as a number; anything else stays text, which the check rejects. */
function numberText(text, pattern) {
  return pattern.test(text) ? Number(text) : text;
}

/**
 * The launcher options, in the order their flags are passed; `default` applies when absent;
 * `commandLine: false`: startLocalService's only (no flag of serve or the kiosk server).
 */
export const SERVICE_OPTIONS = [
  {
    key: 'port',
    flag: '--port',
    default: 0,
    fromText: (text) => numberText(text, /^\d{1,5}$/),
    text(port) {
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new TypeError('must be an integer from 0 to 65535');
      }
      return String(port);
    },
  },
  {
    key: 'host',
    flag: '--host',
    text(host) {
      if (typeof host !== 'string' || host === '') throw new TypeError('must be a non-empty string');
      return host;
    },
  },
  {
    key: 'db',
    flag: '--db',
    default: ':memory:',
    text(db) {
      if (typeof db !== 'string' || db === '') {
        throw new TypeError('must be a file path or ":memory:"');
      }
      return db;
    },
  },
  {
    key: 'mode',
    flag: '--mode',
    text(mode) {
      if (!MODES.includes(mode)) throw new TypeError(`must be one of: ${MODES.join(', ')}`);
      return mode;
    },
  },
  {
    key: 'processingDelay',
    flag: '--processing-delay',
    fromText: (text) => numberText(text, /^\d{1,9}(\.\d+)?$/),
    text(seconds) {
      if (typeof seconds !== 'number' || !(seconds >= 0) || seconds > 1e9) {
        throw new TypeError('must be a number of seconds, >= 0');
      }
      return seconds.toFixed(3);
    },
  },
  {
    key: 'now',
    flag: '--now',
    text(now) {
      const text = now instanceof Date && !Number.isNaN(now.getTime()) ? now.toISOString() : now;
      if (typeof text !== 'string' || !RFC3339.test(text)) {
        throw new TypeError('must be a Date or an RFC 3339 instant, e.g. 2026-11-24T13:15:00Z');
      }
      return text;
    },
  },
  {
    // The per-client fairness cap: connections one remote address may hold (service default 128).
    key: 'maxConnectionsPerPeer',
    flag: '--max-connections-per-peer',
    fromText: (text) => numberText(text, /^\d{1,4}$/),
    text(count) {
      if (!Number.isInteger(count) || count < 1 || count > 1000) {
        throw new TypeError('must be an integer from 1 to 1000');
      }
      return String(count);
    },
  },
  {
    // Requests handled at once (service default 4 x hardware threads, at least 4). Launcher only:
    // no flag of serve or the kiosk server (commandLine: false).
    key: 'workers',
    flag: '--workers',
    commandLine: false,
    text(count) {
      if (!Number.isInteger(count) || count < 1 || count > 1000) {
        throw new TypeError('must be an integer from 1 to 1000');
      }
      return String(count);
    },
  },
  {
    // Where the access log goes: a file, '-' (stderr, the service's default) or 'off'. Launcher only.
    key: 'accessLog',
    flag: '--access-log',
    commandLine: false,
    text(where) {
      if (typeof where !== 'string' || where === '') throw new TypeError("must be a file path, '-' (stderr) or 'off'");
      return where;
    },
  },
  {
    // The origins whose pages may call the program from a browser (CORS): one origin or a list,
    // one flag each (multiple: the command line's flag is repeatable).
    key: 'corsOrigin',
    flag: '--cors-origin',
    multiple: true,
    text(origins) {
      const list = typeof origins === 'string' ? [origins] : origins;
      if (!Array.isArray(list)) throw new TypeError('must be an origin or an array of origins, e.g. http://localhost:5173');
      return list.map(corsOrigin);
    },
  },
  {
    // A fixture object is written to a file by the launcher; the flag then names that file.
    key: 'fixture',
    flag: '--fixture',
    text(fixture) {
      if (typeof fixture !== 'string' && (fixture === null || typeof fixture !== 'object')) {
        throw new TypeError('must be a file path or a fixture object');
      }
      return fixture;
    },
  },
];

/**
 * The store hub's own option, here (no imports) so that startStoreHub, `hub` and
 * createStoreHubEmulator share it: a claim's default lifetime. The hub checks its range.
 */
export const CLAIM_TTL_OPTION = {
  key: 'claimTtl',
  flag: '--claim-ttl',
  text(ttl) {
    if (typeof ttl !== 'string' || ttl === '') throw new TypeError("must be a duration such as '7d', '36h', '90m' or '600s'");
    return ttl;
  },
};

/** The options a command line (serve's, the kiosk server's) may give. */
export const COMMAND_LINE_OPTIONS = SERVICE_OPTIONS.filter((option) => option.commandLine !== false);

/** An option's check: its flag value, or a TypeError "<name> must be ..." (name: how the caller calls it). */
export function checked(option, value, name) {
  try {
    return option.text(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    throw new TypeError(`${name} ${e.message}`);
  }
}

/**
 * The program's arguments for one option's `value` (its flag and value, once per value of a
 * repeatable one); a TypeError "<name> must be ..." for a bad value.
 */
export function optionArguments(option, value, name) {
  const flagValue = checked(option, value, name);
  return option.multiple ? flagValue.flatMap((one) => [option.flag, one]) : [option.flag, flagValue];
}

/**
 * Launcher options from a command line's text (`serve`, the kiosk server): `texts` maps a flag's
 * name without "--" (parseCommandLine's values) to its text (an array of texts for a repeatable
 * one); undefined is absent. Each given one
 * is read as its option's type and checked; returns { key: value } for them. A TypeError names the
 * flag of the first bad one ("--port must be an integer from 0 to 65535").
 */
export function serviceOptionsFromText(texts) {
  const options = {};
  for (const option of COMMAND_LINE_OPTIONS) {
    const text = texts[option.flag.slice(2)];
    if (text === undefined) continue;
    const value = option.fromText ? option.fromText(text) : text;
    checked(option, value, option.flag);
    options[option.key] = value;
  }
  return options;
}

/**
 * The service's arguments for launcher options. `options`: an object keyed by SERVICE_OPTIONS'
 * keys (other keys are the caller's own and ignored; undefined and, for fixture, null mean
 * absent). Each value is checked: a TypeError "<caller>: <key> must be ..." names the first bad
 * one. `extra`: more loyalty_service arguments passed as given (an array of strings). Returns
 * { args, fixture }: args without --fixture, which the launcher adds once it has a file (fixture:
 * a path, an object, or undefined).
 */
export function serviceArguments(options, { caller = 'startLocalService', extra = [] } = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${caller}: options must be an object`);
  }
  if (!Array.isArray(extra) || !extra.every((arg) => typeof arg === 'string')) {
    throw new TypeError(`${caller}: args must be an array of strings`);
  }
  const args = [];
  let fixture;
  for (const option of SERVICE_OPTIONS) {
    let value = options[option.key];
    if (value === undefined || (option.key === 'fixture' && value === null)) value = option.default;
    if (value === undefined) continue;
    if (option.key === 'fixture') fixture = checked(option, value, `${caller}: ${option.key}`);
    else args.push(...optionArguments(option, value, `${caller}: ${option.key}`));
  }
  args.push(...extra);
  return { args, fixture };
}
