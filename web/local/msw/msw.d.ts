// Types of `loyalty-qualifier/msw` (web/local/msw/msw.js): Mock Service Worker handlers answered by an
// emulator (docs/emulator.md). MSW (>= 2) is an optional peer dependency.
import type { HttpHandler } from 'msw';

import type { Emulator } from '../emulator/emulator.js';

export interface LoyaltyHandlerOptions {
  /** The loyalty API's base URL (its /api/... routes), e.g. https://loyalty.example.com. */
  baseUrl: string;
  /** The consumer API's base URL for the sandbox operations; default baseUrl. */
  sandboxUrl?: string;
}

/** Handlers answering everything under baseUrl (and sandboxUrl) from a createEmulator() emulator. */
export function loyaltyHandlers(emulator: Emulator, options: LoyaltyHandlerOptions): HttpHandler[];

/** Handlers answering everything under baseUrl from a createStoreHubEmulator() emulator. */
export function storeHubHandlers(hubEmulator: Emulator, options: { baseUrl: string }): HttpHandler[];
