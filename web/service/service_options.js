// The local service's launch options, in one place: each launcher option (a key of
// startLocalService's options, a flag of `loyalty-qualifier serve`) with the loyalty_service flag
// it maps to and its check. startLocalService() passes typed values (checked here, a TypeError
// before anything starts); `serve` passes its command line as text (names checked here, values by
// the service itself, service/options.cpp, which reports its own errors). Node and browsers alike:
// no imports.

const MODES = ['sandbox', 'production'];

/** The launcher options, in the order their flags are passed; `default` applies when absent. */
export const SERVICE_OPTIONS = [
  {
    key: 'port',
    flag: '--port',
    default: 0,
    text(port) {
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new TypeError('port must be an integer from 0 to 65535');
      }
      return String(port);
    },
  },
  {
    key: 'host',
    flag: '--host',
    text(host) {
      if (typeof host !== 'string' || host === '') throw new TypeError('host must be a non-empty string');
      return host;
    },
  },
  {
    key: 'db',
    flag: '--db',
    default: ':memory:',
    text(db) {
      if (typeof db !== 'string' || db === '') {
        throw new TypeError('db must be a file path or ":memory:"');
      }
      return db;
    },
  },
  {
    key: 'mode',
    flag: '--mode',
    text(mode) {
      if (!MODES.includes(mode)) throw new TypeError(`mode must be one of: ${MODES.join(', ')}`);
      return mode;
    },
  },
  {
    key: 'processingDelay',
    flag: '--processing-delay',
    text(seconds) {
      if (typeof seconds !== 'number' || !(seconds >= 0) || seconds > 1e9) {
        throw new TypeError('processingDelay must be a number of seconds, >= 0');
      }
      return seconds.toFixed(3);
    },
  },
  {
    key: 'now',
    flag: '--now',
    text(now) {
      const text = now instanceof Date ? now.toISOString() : now;
      if (typeof text !== 'string') throw new TypeError('now must be a Date or an RFC 3339 string');
      return text;
    },
  },
  {
    // The per-client fairness cap: connections one remote address may hold (service default 128).
    key: 'maxConnectionsPerPeer',
    flag: '--max-connections-per-peer',
    text(count) {
      if (!Number.isInteger(count) || count < 1 || count > 1000) {
        throw new TypeError('maxConnectionsPerPeer must be an integer from 1 to 1000');
      }
      return String(count);
    },
  },
  {
    // A fixture object is written to a file by the launcher; the flag then names that file.
    key: 'fixture',
    flag: '--fixture',
    text(fixture) {
      if (typeof fixture !== 'string' && (fixture === null || typeof fixture !== 'object')) {
        throw new TypeError('fixture must be a file path or a fixture object');
      }
      return fixture;
    },
  },
];

/** A command line `serve` cannot pass on: its message names the problem. */
export class ServiceOptionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ServiceOptionError';
  }
}

/**
 * The service's arguments for launcher options. `options`: an object keyed by SERVICE_OPTIONS'
 * keys (other keys are the caller's own and ignored; undefined and, for fixture, null mean
 * absent). Typed values are checked (a TypeError prefixed with `caller`); with `{ text: true }`
 * every value is the command line's text, passed as given for the service to check. `extra`: more
 * loyalty_service arguments passed as given (an array of strings). Returns { args, fixture }:
 * args without --fixture, which the launcher adds once it has a file (fixture: a path, an
 * object, or undefined).
 */
export function serviceArguments(options, { caller = 'startLocalService', text = false, extra = [] } = {}) {
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
    let flagValue;
    if (text && typeof value === 'string') {
      flagValue = value;
    } else {
      try {
        flagValue = option.text(value);
      } catch (e) {
        if (e instanceof TypeError) throw new TypeError(`${caller}: ${e.message}`);
        throw e;
      }
    }
    if (option.key === 'fixture') fixture = flagValue;
    else args.push(option.flag, flagValue);
  }
  args.push(...extra);
  return { args, fixture };
}

/**
 * `serve`'s command line (`--name value` or `--name=value`, each option at most once) as
 * launcher options with text values, for serviceArguments(options, { text: true }). Throws
 * ServiceOptionError for an unknown option, a missing value, a repeated option or a bare word.
 */
export function optionsFromCommandLine(argv) {
  const options = {};
  for (let i = 0; i < argv.length; ++i) {
    const argument = argv[i];
    if (!argument.startsWith('--')) throw new ServiceOptionError(`unexpected argument "${argument}"`);
    const equals = argument.indexOf('=');
    const name = equals < 0 ? argument.slice(2) : argument.slice(2, equals);
    const option = SERVICE_OPTIONS.find((known) => known.flag === `--${name}`);
    if (option === undefined) throw new ServiceOptionError(`unknown option "--${name}"`);
    let value;
    if (equals >= 0) {
      value = argument.slice(equals + 1);
    } else {
      if (i + 1 >= argv.length) throw new ServiceOptionError(`option --${name} needs a value`);
      value = argv[++i];
    }
    if (Object.hasOwn(options, option.key)) throw new ServiceOptionError(`option --${name} is given twice`);
    options[option.key] = value;
  }
  return options;
}
