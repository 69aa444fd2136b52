// Type-level use of `loyalty-qualifier/emulator` and `loyalty-qualifier/msw` (web/local/emulator/emulator.d.ts,
// web/local/msw/msw.d.ts), checked by `npm test`.
import { createEmulator, createStoreHubEmulator, type Emulator, type EmulatorOptions } from 'loyalty-qualifier/emulator';
import { loyaltyHandlers, storeHubHandlers } from 'loyalty-qualifier/msw';
import { startLocalService } from 'loyalty-qualifier/service';

let now = Date.parse('2026-11-24T13:15:00Z');
const options: EmulatorOptions = { fixture: { users: [] }, now: () => now, processingDelay: 60, mode: 'sandbox' };
const emulator: Emulator = await createEmulator(options);
const res: Response = await emulator.fetch('https://loyalty.example.com/api/account', { headers: { Accept: 'application/json' } });
now += res.status;
await emulator.reset();
const hub: Emulator = await createStoreHubEmulator({ storeKey: 'key', now: new Date(), claimTtl: '36h' });
const handlers = [...loyaltyHandlers(emulator, { baseUrl: 'https://loyalty.example.com', sandboxUrl: 'https://sandbox.example.com' }), ...storeHubHandlers(hub, { baseUrl: 'http://hub.local' })];
console.log(handlers.length);
await emulator.close();
await startLocalService({ runtime: 'wasm', fixture: { users: [] } });
// @ts-expect-error the runtimes are 'native', 'wasm' and 'auto'
await startLocalService({ runtime: 'jvm' });
// @ts-expect-error a store hub emulator needs its store key
await createStoreHubEmulator({});
