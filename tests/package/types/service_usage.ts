// Type-level use of `loyalty-qualifier/service` (web/local/service/local_service.d.ts), checked by `npm test`.
import {
  ServiceBinaryError,
  hubBinaryPath,
  serviceBinaryPath,
  startLocalService,
  startStoreHub,
  type LocalService,
  type LocalServiceExit,
  type LocalServiceOptions,
  type ServiceBinaryCause,
  type StoreHubOptions,
} from 'loyalty-qualifier/service';

const options: LocalServiceOptions = {
  fixture: { users: [] },
  db: ':memory:',
  mode: 'production',
  processingDelay: 0.5,
  port: 0,
};
const service: LocalService = await startLocalService(options);
const url: string = service.url;
// null on the wasm runtime (no process of its own): never passed to process.kill unchecked.
const pid: number | null = service.pid;
// @ts-expect-error pid may be null
const processId: number = service.pid;
const exit: LocalServiceExit = await service.exited;
const alive: boolean = service.running() || service.kill('SIGKILL');
await service.stop();
await startLocalService({
  db: ':memory:',
  binary: '/opt/loyalty_service',
  args: ['--access-log', 'off'],
  wrapper: ['unshare', '-m'],
  onStderr: (chunk: string) => console.error(chunk),
});
await startLocalService({ fixture: './fixture.json', now: new Date() });
await startLocalService({ corsOrigin: 'http://localhost:5173' });
const devServers: readonly string[] = ['http://localhost:5173', 'http://127.0.0.1:4173'];
await startLocalService({ corsOrigin: devServers });
await startLocalService();
const binary: string = serviceBinaryPath();
const failure = new Error('x');
if (failure instanceof ServiceBinaryError) {
  const code: 'LQ_NO_SERVICE_BINARY' = failure.code;
  const cause: ServiceBinaryCause = failure.cause;
  const fixable: 'not-installed' | 'unsupported-platform' | 'binary-missing' = cause;
  console.log(code, fixable);
}
console.log(url, pid, processId, binary, exit.code, exit.signal, alive);

// @ts-expect-error: mode is sandbox or production
await startLocalService({ mode: 'staging' });
// @ts-expect-error: a wrapper names at least its command
await startLocalService({ wrapper: [] });
// @ts-expect-error: an origin is text, not a port
await startLocalService({ corsOrigin: 5173 });

const hubOptions: StoreHubOptions = { storeKey: 'b3e1c7a95d2f48e06a1c9b7d3e5f2a80', port: 0, host: '127.0.0.1', db: ':memory:' };
const hub = await startStoreHub(hubOptions);
const hubUrl: string = hub.url;
await hub.stop();
await startStoreHub({ storeKey: 'b3e1c7a95d2f48e06a1c9b7d3e5f2a80', host: '0.0.0.0', exposeOnNetwork: true, args: ['--claim-ttl', '90m'] });
await startStoreHub({ storeKey: 'b3e1c7a95d2f48e06a1c9b7d3e5f2a80', corsOrigin: ['http://localhost:5173'] });
await startStoreHub({ storeKey: 'b3e1c7a95d2f48e06a1c9b7d3e5f2a80', claimTtl: '36h', runtime: 'wasm' });
const hubBinary: string = hubBinaryPath();
console.log(hubUrl, hubBinary);

// A program that launches the service from a command line of its own (the kiosk server).
import { checkStoreKey, serviceOptionsFromText, wasmDatabaseProblem } from 'loyalty-qualifier/service';
import { EXIT, UsageError, parseCommandLine } from 'loyalty-qualifier/command-line';

const { values, positionals } = parseCommandLine(['--db', 'x.db', '--verbose'], { db: { type: 'string' }, verbose: { type: 'boolean' } });
const db = typeof values['db'] === 'string' ? values['db'] : undefined;
const launch: Partial<LocalServiceOptions> = serviceOptionsFromText({ db, port: '0' });
const problem: string | null = wasmDatabaseProblem(launch.db);
const key: string = checkStoreKey('0123456789abcdef0123456789abcdef', 'LQ_STORE_KEY');
const usage: 2 = EXIT.USAGE;
if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, { showUsage: false });
console.log(problem, key, usage);
