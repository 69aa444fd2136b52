// Type-level use of `loyalty-qualifier/service` (web/service/local_service.d.ts), checked by `npm test`.
import {
  ServiceBinaryError,
  serviceBinaryPath,
  startLocalService,
  type LocalService,
  type LocalServiceOptions,
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
const pid: number = service.pid;
await service.stop();
await startLocalService({ fixture: './fixture.json', now: new Date() });
await startLocalService();
const binary: string = serviceBinaryPath();
const failure = new Error('x');
if (failure instanceof ServiceBinaryError) {
  const code: 'LQ_NO_SERVICE_BINARY' = failure.code;
  console.log(code);
}
console.log(url, pid, binary);

// @ts-expect-error: mode is sandbox or production
await startLocalService({ mode: 'staging' });
